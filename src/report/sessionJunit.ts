import type { LocatedIssue } from '../core/issue.js';
import { requestOf } from './requestName.js';
import { attrs, describeIssue, escapeXml, recordGroups } from './formatJunit.js';
import type { FileSummary, Report } from './report.js';
import type { ReportIssues } from './reportIssues.js';

interface Case {
  name: string;
  classname: string;
  timestamp?: string;
  issues: LocatedIssue[];
}

const failing = (issues: readonly LocatedIssue[]) => issues.some((issue) => issue.severity === 'error');

/**
 * A request's testcases: one passed case named after it (`#N METHOD PATH`) when it broke no rule,
 * else one case per rule it broke (`#N METHOD PATH: rule`), failed on an error. The names are
 * what a CI history follows from run to run: the arrival time is an attribute, never in a name.
 */
function casesOf(file: FileSummary, issues: readonly LocatedIssue[]): Case[] {
  const request = requestOf(file.file);
  const name = request ? `#${request.seq} ${request.method} ${request.path}` : file.file;
  const common = {
    classname: `sandbox.${file.endpoint}`,
    ...(request ? { timestamp: request.at } : {}),
  };
  if (issues.length === 0) return [{ name, ...common, issues: [] }];
  const byRule = new Map<string, LocatedIssue[]>();
  for (const issue of issues) byRule.set(issue.code, [...(byRule.get(issue.code) ?? []), issue]);
  return [...byRule].map(([rule, ruleIssues]) => ({
    name: `${name}: ${rule}`,
    ...common,
    issues: ruleIssues,
  }));
}

function testcase(test: Case): string {
  const errors = test.issues.filter((issue) => issue.severity === 'error');
  const warnings = test.issues.filter((issue) => issue.severity === 'warning');
  const body: string[] = [];
  if (errors.length > 0)
    body.push(
      `      <failure ${attrs({ message: describeIssue(errors[0]!), type: errors[0]!.code })}>` +
        `${escapeXml(errors.map(describeIssue).join('\n'))}</failure>`,
    );
  if (warnings.length > 0)
    body.push(
      `      <system-out>${escapeXml(warnings.map((w) => `warning ${describeIssue(w)}`).join('\n'))}</system-out>`,
    );
  const { name, classname, timestamp } = test;
  const open = `    <testcase ${attrs({ name, classname, ...(timestamp ? { timestamp } : {}) })}`;
  return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
}

/** Each request's testcases, in the session's order, with the issues that are its own. */
function* requestCases(report: Report, issues: Iterable<LocatedIssue>): Generator<Case> {
  const groups = recordGroups(issues);
  let next = groups.next();
  for (const file of report.files) {
    let own: LocatedIssue[] = [];
    while (!next.done && next.value[0]!.file === file.file && next.value[0]!.endpoint === file.endpoint) {
      own = [...own, ...next.value];
      next = groups.next();
    }
    yield* casesOf(file, own);
  }
}

/**
 * A sandbox session's report as JUnit XML: one testsuite, the session, with the testcases of
 * each request in arrival order (casesOf), so a CI history can follow a request's rule from run to run.
 */
export function* sessionJunitChunks(report: Report, issues: ReportIssues): Generator<string> {
  let tests = 0;
  let failures = 0;
  for (const test of requestCases(report, issues)) {
    tests++;
    if (failing(test.issues)) failures++;
  }
  const first = report.files.map((file) => requestOf(file.file)).find((request) => request !== undefined);
  const counts = { tests, failures, errors: 0 };
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs({ name: 'collect sandbox', ...counts })}>\n`;
  yield (
    `  <testsuite ` +
    `${attrs({ name: 'collect sandbox session', ...counts, skipped: 0, ...(first ? { timestamp: first.at } : {}) })}` +
    `>\n`
  );
  for (const test of requestCases(report, issues)) yield `${testcase(test)}\n`;
  const notes = report.notes.map(
    (note) => `${note.code}: ${note.message}${note.count === undefined ? '' : ` (${note.count})`}`,
  );
  yield (
    `  </testsuite>` +
    `${notes.length > 0 ? `\n  <system-out>${escapeXml(notes.join('\n'))}</system-out>` : ''}\n` +
    `</testsuites>\n`
  );
}
