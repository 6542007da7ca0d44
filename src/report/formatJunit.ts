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

function testcase(file: string, issues: LocatedIssue[]): string {
  const first = issues[0]!;
  const name = first.index === null ? 'file' : `record ${first.index}${first.line === null ? '' : ` (line ${first.line})`}`;
  const errors = issues.filter((issue) => issue.severity === 'error');
  const warnings = issues.filter((issue) => issue.severity === 'warning');
  const body: string[] = [];
  if (errors.length > 0) {
    body.push(`      <failure ${attrs({ message: describe(errors[0]!), type: errors[0]!.code })}>${escapeXml(errors.map(describe).join('\n'))}</failure>`);
  }
  if (warnings.length > 0) body.push(`      <system-out>${escapeXml(warnings.map((w) => `warning ${describe(w)}`).join('\n'))}</system-out>`);
  return `    <testcase ${attrs({ classname: `${first.endpoint}.${file}`, name, file, ...(first.line === null ? {} : { line: first.line }) })}>\n${body.join('\n')}\n    </testcase>`;
}

/** `--format junit`: a testsuite per input file, a testcase per record with problems. */
export function formatJunit(report: Report): string {
  const suites: string[] = [];
  let failures = 0;
  let tests = 0;
  for (const file of report.files) {
    const groups = new Map<number | null, LocatedIssue[]>();
    for (const issue of report.issues) {
      if (issue.file !== file.file || issue.endpoint !== file.endpoint) continue;
      const group = groups.get(issue.index);
      if (group) group.push(issue);
      else groups.set(issue.index, [issue]);
    }
    const cases = [...groups.values()].map((issues) => testcase(file.file, issues));
    const failed = [...groups.values()].filter((issues) => issues.some((i) => i.severity === 'error')).length;
    failures += failed;
    tests += groups.size;
    suites.push(`  <testsuite ${attrs({ name: file.file, tests: groups.size, failures: failed, errors: 0, skipped: 0 })}>\n${[
      `    <properties><property ${attrs({ name: 'endpoint', value: file.endpoint })}/><property ${attrs({ name: 'records', value: file.records })}/></properties>`,
      ...cases,
    ].join('\n')}\n  </testsuite>`);
  }
  const notes = report.notes.map((note) => `${note.code}: ${note.message}${note.count === undefined ? '' : ` (${note.count})`}`);
  const out = notes.length > 0 ? `\n  <system-out>${escapeXml(notes.join('\n'))}</system-out>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs({ name: 'collect', tests, failures, errors: 0 })}>\n${suites.join('\n')}${out}\n</testsuites>\n`;
}
