import type { LocatedIssue } from '../core/issue.js';
import type { Report } from './report.js';

const escapeXml = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex -- characters XML 1.0 cannot carry at all
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

const attrs = (values: Record<string, string | number>) =>
  Object.entries(values).map(([key, value]) => `${key}="${escapeXml(String(value))}"`).join(' ');

function describe(issue: LocatedIssue): string {
  const field = issue.path === '' ? '' : `${issue.path}: `;
  return `[${issue.code}] ${field}${issue.message}${issue.hint ? ` (fix: ${issue.hint})` : ''}`;
}

function testcase(file: string, endpoint: string, name: string, line: number | null, issues: LocatedIssue[]): string {
  const errors = issues.filter((issue) => issue.severity === 'error');
  const warnings = issues.filter((issue) => issue.severity === 'warning');
  const body: string[] = [];
  if (errors.length > 0) {
    body.push(`      <failure ${attrs({ message: describe(errors[0]!), type: errors[0]!.code })}>${escapeXml(errors.map(describe).join('\n'))}</failure>`);
  }
  if (warnings.length > 0) body.push(`      <system-out>${escapeXml(warnings.map((w) => `warning ${describe(w)}`).join('\n'))}</system-out>`);
  const open = `    <testcase ${attrs({ classname: `${endpoint}.${file}`, name, file, ...(line === null ? {} : { line }) })}`;
  return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
}

/**
 * `--format junit`: a testsuite per input file. Its first testcase is the file itself ("N records
 * checked": it fails on a problem with the file, so a valid file shows one passed test), then one
 * testcase per record with problems. Valid records get no testcase of their own, so a file of a
 * million records stays as small as its problems.
 */
export function formatJunit(report: Report): string {
  const suites: string[] = [];
  let failures = 0;
  let tests = 0;
  for (const file of report.files) {
    const fileIssues: LocatedIssue[] = [];
    const groups = new Map<number, LocatedIssue[]>();
    for (const issue of report.issues) {
      if (issue.file !== file.file || issue.endpoint !== file.endpoint) continue;
      if (issue.index === null) {
        fileIssues.push(issue);
        continue;
      }
      const group = groups.get(issue.index);
      if (group) group.push(issue);
      else groups.set(issue.index, [issue]);
    }
    const fileLine = fileIssues[0]?.line ?? null;
    const cases = [
      testcase(file.file, file.endpoint, `${file.records} ${file.records === 1 ? 'record' : 'records'} checked`, fileLine, fileIssues),
      ...[...groups.entries()].map(([index, issues]) => {
        const line = issues[0]!.line;
        return testcase(file.file, file.endpoint, `record ${index}${line === null ? '' : ` (line ${line})`}`, line, issues);
      }),
    ];
    const failed = [fileIssues, ...groups.values()].filter((issues) => issues.some((i) => i.severity === 'error')).length;
    failures += failed;
    tests += cases.length;
    suites.push(`  <testsuite ${attrs({ name: file.file, tests: cases.length, failures: failed, errors: 0, skipped: 0 })}>\n${[
      `    <properties><property ${attrs({ name: 'endpoint', value: file.endpoint })}/><property ${attrs({ name: 'records', value: file.records })}/></properties>`,
      ...cases,
    ].join('\n')}\n  </testsuite>`);
  }
  const notes = report.notes.map((note) => `${note.code}: ${note.message}${note.count === undefined ? '' : ` (${note.count})`}`);
  const out = notes.length > 0 ? `\n  <system-out>${escapeXml(notes.join('\n'))}</system-out>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs({ name: 'collect', tests, failures, errors: 0 })}>\n${suites.join('\n')}${out}\n</testsuites>\n`;
}
