import type { LocatedIssue } from '../core/issue.js';
import type { Report } from './report.js';
import { issuesOf, type ReportIssues } from './reportIssues.js';

/** Workflow-command escaping: data escapes %, CR and LF; properties also : and ,. */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

function command(issue: LocatedIssue): string {
  const properties = [`file=${escapeProperty(issue.file)}`];
  if (issue.line !== null) properties.push(`line=${issue.line}`);
  properties.push(`title=${escapeProperty(issue.code)}`);
  const field = issue.path === '' ? '' : `${issue.path}: `;
  const record = issue.index === null ? '' : ` (record ${issue.index}, ${issue.endpoint})`;
  const hint = issue.hint ? ` Fix: ${issue.hint}` : '';
  return `::${issue.severity} ${properties.join(',')}::${escapeData(`${field}${issue.message}${record}.${hint}`)}`;
}

/** `--format github` as it is written, line by line. */
export function* githubChunks(report: Report, issues: ReportIssues): Generator<string> {
  const { summary } = report;
  for (const issue of issues) yield `${command(issue)}\n`;
  for (const note of report.notes)
    yield `::notice title=${escapeProperty(note.code)}::${escapeData(note.message)}\n`;
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  yield `collect: ${plural(summary.records, 'record')}, ${summary.valid} valid, ${summary.invalid} invalid, ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}\n`;
}

/** `--format github`: GitHub Actions workflow commands, so problems show on the pull request's lines. */
export function formatGithub(report: Report): string {
  return [...githubChunks(report, issuesOf(report.issues))].join('');
}
