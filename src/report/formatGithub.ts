import { annotatedGroups, ciLimits } from './ciLimits.js';
import type { IssueGroup } from './groupIssues.js';
import type { Report } from './report.js';
import { issuesOf, type ReportIssues } from './reportIssues.js';
import { stepSummary } from './stepSummary.js';

/** Options of `--format github`. */
export interface GithubOptions {
  /** Takes the job summary (Markdown), when the run has one to append to (`$GITHUB_STEP_SUMMARY`, given by the CLI). */
  stepSummary?: (markdown: string) => void;
}

/** Workflow-command escaping: data escapes %, CR and LF; properties also : and ,. */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

const plural = (count: number, word: string) =>
  `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;

/** One annotation for a group of issues, at its first example, with its count. */
function command(group: IssueGroup): string {
  const first = group.examples[0];
  const properties = first ? [`file=${escapeProperty(first.file)}`] : [];
  if (first && first.line !== null) properties.push(`line=${first.line}`);
  const title = group.count === 1 ? group.code : `${group.code} (${plural(group.count, 'issue')})`;
  properties.push(`title=${escapeProperty(title)}`);
  const field = group.field === '' ? '' : `${group.field}: `;
  const record = first && first.index !== null ? ` (record ${first.index}, ${group.endpoint})` : '';
  const more =
    group.count === 1
      ? ''
      : `; ${plural(group.count - 1, 'more issue')} like it in ${group.endpoint} records`;
  const hint = group.hint ? ` Fix: ${group.hint}` : '';
  return (
    `::${group.severity} ${properties.join(',')}::` +
    `${escapeData(`${field}${group.message}${record}${more}.${hint}`)}`
  );
}

/**
 * `--format github` as it is written, line by line: one annotation per issue group (its count, at
 * its first example), as many as GitHub shows (ciLimits.ts: 10 of each kind per step), the notes,
 * the counts; and the job summary handed to `options.stepSummary`.
 */
export function* githubChunks(
  report: Report,
  issues: ReportIssues,
  options: GithubOptions = {},
): Generator<string> {
  const { summary } = report;
  const { shown, left } = annotatedGroups(issues.groups);
  for (const group of shown) yield `${command(group)}\n`;
  for (const note of report.notes.slice(0, ciLimits.annotationsPerKind))
    yield `::notice title=${escapeProperty(note.code)}::${escapeData(note.message)}\n`;
  const notes = Math.max(0, report.notes.length - ciLimits.annotationsPerKind);
  const unannotated = [
    left > 0 ? plural(left, 'more issue group') : '',
    notes > 0 ? plural(notes, 'more note') : '',
  ]
    .filter(Boolean)
    .join(' and ');
  if (left > 0 || notes > 0)
    yield (
      `collect: ${unannotated} not annotated (GitHub shows ${ciLimits.annotationsPerKind} of each kind per step): ` +
      `${options.stepSummary ? 'the job summary lists them' : '--format json lists them'}\n`
    );
  yield (
    `collect: ${plural(summary.records, 'record')}, ${summary.valid} valid, ${summary.invalid} ` +
    `invalid, ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}\n`
  );
  options.stepSummary?.(stepSummary(report, issues));
}

/** `--format github`: GitHub Actions workflow commands, so problems show on the pull request's lines. */
export function formatGithub(report: Report, options: GithubOptions = {}): string {
  return [...githubChunks(report, issuesOf(report.issues), options)].join('');
}
