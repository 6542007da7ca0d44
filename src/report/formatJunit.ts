import type { LocatedIssue } from '../core/issue.js';
import type { FileSummary, Report } from './report.js';
import { issuesOf, type ReportIssues } from './reportIssues.js';

export const escapeXml = (text: string): string =>
  text
    // eslint-disable-next-line no-control-regex -- characters XML 1.0 cannot carry at all
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

export const attrs = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([key, value]) => `${key}="${escapeXml(String(value))}"`)
    .join(' ');

export function describeIssue(issue: LocatedIssue): string {
  const field = issue.path === '' ? '' : `${issue.path}: `;
  return `[${issue.code}] ${field}${issue.message}${issue.hint ? ` (fix: ${issue.hint})` : ''}`;
}

function testcase(
  file: string,
  endpoint: string,
  name: string,
  line: number | null,
  issues: LocatedIssue[],
): string {
  const errors = issues.filter((issue) => issue.severity === 'error');
  const warnings = issues.filter((issue) => issue.severity === 'warning');
  const body: string[] = [];
  if (errors.length > 0) {
    body.push(
      `      <failure ${attrs({ message: describeIssue(errors[0]!), type: errors[0]!.code })}>` +
        `${escapeXml(errors.map(describeIssue).join('\n'))}</failure>`,
    );
  }
  if (warnings.length > 0)
    body.push(
      `      <system-out>${escapeXml(warnings.map((w) => `warning ${describeIssue(w)}`).join('\n'))}</system-out>`,
    );
  const open =
    `    <testcase ` +
    `${attrs({ classname: `${endpoint}.${file}`, name, file, ...(line === null ? {} : { line }) })}`;
  return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
}

/** The issues record by record, in report order (a file's own problems, index null, come first as one group). */
export function* recordGroups(issues: Iterable<LocatedIssue>): Generator<LocatedIssue[]> {
  let group: LocatedIssue[] = [];
  for (const issue of issues) {
    const head = group[0];
    if (
      head &&
      (head.index !== issue.index || head.file !== issue.file || head.endpoint !== issue.endpoint)
    ) {
      yield group;
      group = [];
    }
    group.push(issue);
  }
  if (group.length > 0) yield group;
}

const fileKey = (endpoint: string, file: string) => `${endpoint}\u0000${file}`;
const failing = (issues: readonly LocatedIssue[]) => issues.some((issue) => issue.severity === 'error');

/**
 * Each file's testcases and failures, counted in a first pass over the issues: the tags that open them need
 * the counts.
 */
function countCases(files: readonly FileSummary[], issues: Iterable<LocatedIssue>) {
  const counts = new Map(files.map((file) => [fileKey(file.endpoint, file.file), { tests: 1, failures: 0 }]));
  for (const group of recordGroups(issues)) {
    const count = counts.get(fileKey(group[0]!.endpoint, group[0]!.file));
    if (!count) continue;
    if (group[0]!.index !== null) count.tests++;
    if (failing(group)) count.failures++;
  }
  return counts;
}

/**
 * `--format junit` as it is written, testcase by testcase: a testsuite per input file. Its first
 * testcase is the file itself ("N records checked": it fails on a problem with the file, so a valid
 * file shows one passed test), then one testcase per record with problems. Valid records get no
 * testcase of their own, so a file of a million records stays as small as its problems.
 */
export function* junitChunks(report: Report, issues: ReportIssues): Generator<string> {
  const counts = countCases(report.files, issues);
  let tests = 0;
  let failures = 0;
  for (const count of counts.values()) {
    tests += count.tests;
    failures += count.failures;
  }
  yield (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ` +
    `${attrs({ name: 'collect', tests, failures, errors: 0 })}>\n`
  );
  const groups = recordGroups(issues);
  let next = groups.next();
  for (const [position, file] of report.files.entries()) {
    const count = counts.get(fileKey(file.endpoint, file.file))!;
    const ours = () =>
      !next.done && next.value[0]!.file === file.file && next.value[0]!.endpoint === file.endpoint;
    let fileIssues: LocatedIssue[] = [];
    if (ours() && next.value![0]!.index === null) {
      fileIssues = next.value!;
      next = groups.next();
    }
    yield (
      `${position > 0 ? '\n' : ''}  <testsuite ` +
      `${attrs({ name: file.file, tests: count.tests, failures: count.failures, errors: 0, skipped: 0 })}` +
      `>\n` +
      `    <properties><property ${attrs({ name: 'endpoint', value: file.endpoint })}/><property ` +
      `${attrs({ name: 'records', value: file.records })}/></properties>\n` +
      testcase(
        file.file,
        file.endpoint,
        `${file.records} ${file.records === 1 ? 'record' : 'records'} checked`,
        fileIssues[0]?.line ?? null,
        fileIssues,
      )
    );
    for (; ours(); next = groups.next()) {
      const record = next.value!;
      const { index, line } = record[0]!;
      const name = `record ${index}${line === null ? '' : ` (line ${line})`}`;
      yield `\n${testcase(file.file, file.endpoint, name, line, record)}`;
    }
    yield '\n  </testsuite>';
  }
  const notes = report.notes.map(
    (note) => `${note.code}: ${note.message}${note.count === undefined ? '' : ` (${note.count})`}`,
  );
  const out = notes.length > 0 ? `\n  <system-out>${escapeXml(notes.join('\n'))}</system-out>` : '';
  yield `${out}\n</testsuites>\n`;
}

/** `--format junit`: JUnit XML, a testsuite per input file (see junitChunks). */
export function formatJunit(report: Report): string {
  return [...junitChunks(report, issuesOf(report.issues))].join('');
}
