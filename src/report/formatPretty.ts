import type { ChalkInstance } from 'chalk';
import type { LocatedIssue } from '../core/issue.js';
import { shorten } from '../core/suggest.js';
import { terminalText as safe } from '../core/terminalText.js';
import type { IssueGroup } from './groupIssues.js';
import { exitCodes, type ExitCode } from '../core/exitCodes.js';
import { reportExitCode, type Report } from './report.js';
import { issuesOf, SAMPLE_SIZE, type ReportIssues } from './reportIssues.js';
import { verdictLine } from './verdictLine.js';

/** Options of the pretty report. */
export interface PrettyOptions {
  /**
   * Every issue of every record (`--all-issues`); otherwise the detail stops at DETAIL_LIMIT and the rest is
   * counted by group.
   */
  allIssues?: boolean;
  /** The run's exit code, which the verdict line says; without it (a report alone), the report's own. */
  exitCode?: ExitCode;
  /** Words the verdict line ends with: what a command adds to the run's counts (`collect chargebacks`' rows). */
  verdictNote?: string;
}

/** Issues shown one by one before the report switches to counts per code and field. */
export const DETAIL_LIMIT = SAMPLE_SIZE;
/** Groups shown before the rest are summed up in one line. */
const GROUP_LIMIT = 60;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const counted = (count: number, word: string) =>
  `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;

// Every text from input or the network (file names, fields, messages, values, decisions) goes through safe():
// this report is read on terminals.
function where(issue: LocatedIssue): string {
  const line = issue.line === null ? '' : `:${issue.line}`;
  const record = issue.index === null ? 'the file' : `record ${issue.index}`;
  return `${safe(issue.file)}${line}  ${record} (${safe(issue.endpoint)})`;
}

function issueLines(issue: LocatedIssue, color: ChalkInstance): string[] {
  const mark = issue.severity === 'error' ? color.red('✖ error  ') : color.yellow('⚠ warning');
  const field = issue.path === '' ? '' : `${color.bold(safe(issue.path))}  `;
  const shown = issue.value === undefined ? '' : shorten(issue.value);
  const raw = typeof issue.value === 'string' ? issue.value : shown;
  const got = shown !== '' && !issue.message.includes(raw) ? color.dim(` (got ${safe(shown)})`) : '';
  const child = issue.child ? color.dim(` (${safe(issue.child.file)}:${issue.child.line})`) : '';
  const lines = [
    `  ${mark} ${field}${safe(issue.message)}${got}${child}  ${color.dim(`[${safe(issue.code)}]`)}`,
  ];
  if (issue.hint) lines.push(`              ${color.cyan('fix:')} ${safe(issue.hint)}`);
  return lines;
}

function example(group: IssueGroup['examples'][number]): string {
  const line = group.line === null ? '' : `:${group.line}`;
  return `${safe(group.file)}${line}${group.child ? ` (${safe(group.child.file)}:${group.child.line})` : ''}`;
}

/** The issues counted by code and field, each with a sample message, its fix and where the first ones are. */
function groupLines(issues: ReportIssues, color: ChalkInstance): string[] {
  const { groups } = issues;
  const out = [color.bold(`Issues by code and field (${counted(issues.count, 'issue')}):`)];
  for (const group of groups.slice(0, GROUP_LIMIT)) {
    const mark = group.severity === 'error' ? color.red('✖') : color.yellow('⚠');
    const field = group.field === '' ? '' : ` ${color.bold(safe(group.field))}`;
    out.push(
      `  ${mark} ${safe(group.code)} ×${group.count.toLocaleString('en-US')}  ` +
        `${safe(group.endpoint)}${field}: ${safe(group.message)}`,
    );
    if (group.hint) out.push(`      ${color.cyan('fix:')} ${safe(group.hint)}`);
    out.push(
      color.dim(
        `      e.g. ${group.examples.map(example).join(', ')}${group.count > group.examples.length ? ', ...' : ''}`,
      ),
    );
  }
  if (groups.length > GROUP_LIMIT) {
    const rest = groups.slice(GROUP_LIMIT).reduce((sum, group) => sum + group.count, 0);
    out.push(
      color.dim(
        `  ... ${plural(groups.length - GROUP_LIMIT, 'more group')} (${plural(rest, 'issue')}): ` +
          `--format json lists them all`,
      ),
    );
  }
  out.push('');
  return out;
}

/**
 * `--format pretty` as it is written, piece by piece: problems by record, each with its field, rule
 * and fix, then a summary. Past DETAIL_LIMIT issues the detail stops and the issues are counted by
 * code and field, so a report of 100,000 identical warnings stays a page long (`--all-issues`
 * shows every one, read back one at a time).
 */
export function* prettyChunks(
  report: Report,
  issues: ReportIssues,
  color: ChalkInstance,
  options: PrettyOptions = {},
): Generator<string> {
  let group = '';
  const capped = options.allIssues !== true && issues.count > DETAIL_LIMIT;
  const shown = capped ? issues.sample.slice(0, DETAIL_LIMIT) : issues;
  let any = false;
  for (const issue of shown) {
    const heading = where(issue);
    const lines: string[] = [];
    if (heading !== group) {
      if (group !== '') lines.push('');
      lines.push(color.underline(heading));
      group = heading;
    }
    lines.push(...issueLines(issue, color));
    yield `${lines.join('\n')}\n`;
    any = true;
  }
  const out: string[] = [];
  if (any) out.push('');
  if (capped) {
    out.push(
      color.dim(
        `... ${counted(issues.count - DETAIL_LIMIT, 'more issue')} not shown one by one: ` +
          `--all-issues shows every one, --format json and --rejects keep them all`,
      ),
      '',
    );
    out.push(...groupLines(issues, color));
  }
  for (const note of report.notes) {
    out.push(
      `${color.cyan('ℹ')} ${color.bold(safe(note.code))}: ${safe(note.message)}` +
        `${note.count === undefined ? '' : ` (${note.count})`}`,
    );
  }
  if (report.notes.length > 0) out.push('');
  const { summary } = report;
  const counts =
    `${plural(summary.records, 'record')}: ${summary.valid} valid, ${summary.invalid} invalid · ` +
    `${plural(summary.errors, 'error')} · ${plural(summary.warnings, 'warning')}`;
  // An interrupted run is unfinished, never a success: no green check.
  const unfinished = report.notes.some((note) => note.code.startsWith('interrupted'));
  out.push(
    verdictLine(
      options.exitCode ?? (unfinished ? exitCodes.interrupted : reportExitCode(report)),
      `${counts}${options.verdictNote ?? ''}`,
      color,
    ),
  );
  const { delivery } = report;
  if (delivery) {
    const unsent = summary.unsent ? ` · not sent ${summary.unsent}` : '';
    out.push(
      `  sent ${summary.sent} · accepted ${summary.accepted} · rejected ${summary.rejected} · ` +
        `failed ${summary.failed} · retried ${delivery.retried} · skipped ${summary.skipped}${unsent}`,
    );
    for (const [endpoint, counts] of Object.entries(delivery.endpoints)) {
      out.push(
        color.dim(
          `    ${safe(endpoint).padEnd(9)} sent ${counts.sent}, accepted ${counts.accepted}, ` +
            `rejected ${counts.rejected}, failed ${counts.failed}`,
        ),
      );
    }
    const decisions = Object.entries(delivery.decisions);
    if (decisions.length > 0)
      out.push(
        `  decisions: ${decisions.map(([decision, count]) => `${safe(decision)} ${count}`).join(', ')}`,
      );
  }
  yield `${out.join('\n')}\n`;
}

/** `--format pretty`: the report as people read it (see prettyChunks). */
export function formatPretty(report: Report, color: ChalkInstance, options: PrettyOptions = {}): string {
  return [...prettyChunks(report, issuesOf(report.issues), color, options)].join('');
}
