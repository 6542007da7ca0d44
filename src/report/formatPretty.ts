import type { ChalkInstance } from 'chalk';
import type { LocatedIssue } from '../core/issue.js';
import { shorten } from '../core/suggest.js';
import type { Report } from './report.js';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function where(issue: LocatedIssue): string {
  const line = issue.line === null ? '' : `:${issue.line}`;
  const record = issue.index === null ? 'the file' : `record ${issue.index}`;
  return `${issue.file}${line}  ${record} (${issue.endpoint})`;
}

function issueLines(issue: LocatedIssue, color: ChalkInstance): string[] {
  const mark = issue.severity === 'error' ? color.red('✖ error  ') : color.yellow('⚠ warning');
  const field = issue.path === '' ? '' : `${color.bold(issue.path)}  `;
  const shown = issue.value === undefined ? '' : shorten(issue.value);
  const raw = typeof issue.value === 'string' ? issue.value : shown;
  const got = shown !== '' && !issue.message.includes(raw) ? color.dim(` (got ${shown})`) : '';
  const lines = [`  ${mark} ${field}${issue.message}${got}  ${color.dim(`[${issue.code}]`)}`];
  if (issue.hint) lines.push(`              ${color.cyan('fix:')} ${issue.hint}`);
  return lines;
}

/** `--format pretty`: problems grouped by record, each with its field, rule and fix, then a summary. */
export function formatPretty(report: Report, color: ChalkInstance): string {
  const out: string[] = [];
  let group = '';
  for (const issue of report.issues) {
    const heading = where(issue);
    if (heading !== group) {
      if (group !== '') out.push('');
      out.push(color.underline(heading));
      group = heading;
    }
    out.push(...issueLines(issue, color));
  }
  if (out.length > 0) out.push('');
  for (const note of report.notes) {
    out.push(`${color.cyan('ℹ')} ${color.bold(note.code)}: ${note.message}${note.count === undefined ? '' : ` (${note.count})`}`);
  }
  if (report.notes.length > 0) out.push('');
  const { summary } = report;
  const counts = `${plural(summary.records, 'record')}: ${summary.valid} valid, ${summary.invalid} invalid · ${plural(summary.errors, 'error')} · ${plural(summary.warnings, 'warning')}`;
  // An interrupted run is unfinished, never a success: no green check.
  const unfinished = report.notes.some((note) => note.code.startsWith('interrupted'));
  const verdict = summary.errors > 0 ? color.red.bold('✖ ') : unfinished ? color.yellow.bold('⚠ interrupted: ') : color.green.bold('✔ ');
  out.push(`${verdict}${counts}`);
  const { delivery } = report;
  if (delivery) {
    const unsent = summary.unsent ? ` · not sent ${summary.unsent}` : '';
    out.push(`  sent ${summary.sent} · accepted ${summary.accepted} · rejected ${summary.rejected} · failed ${summary.failed} · retried ${delivery.retried} · skipped ${summary.skipped}${unsent}`);
    for (const [endpoint, counts] of Object.entries(delivery.endpoints)) {
      out.push(color.dim(`    ${endpoint.padEnd(9)} sent ${counts.sent}, accepted ${counts.accepted}, rejected ${counts.rejected}, failed ${counts.failed}`));
    }
    const decisions = Object.entries(delivery.decisions);
    if (decisions.length > 0) out.push(`  decisions: ${decisions.map(([decision, count]) => `${decision} ${count}`).join(', ')}`);
  }
  return `${out.join('\n')}\n`;
}
