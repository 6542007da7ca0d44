import { ciLimits } from './ciLimits.js';
import type { IssueGroup } from './groupIssues.js';
import { reportExitCode, type Report } from './report.js';
import type { ReportIssues } from './reportIssues.js';

/** Rows a table of the summary shows before it counts the rest. */
const TABLE_ROWS = 50;
/** Characters of one cell (a message, a file name) before it is cut. */
const CELL_CHARS = 200;

/**
 * Text from input as one Markdown table cell: HTML and Markdown's own characters escaped (the
 * summary page renders both), on one line, cut to CELL_CHARS.
 */
export function cell(text: string): string {
  const line = text.replace(/[\r\n\t]+/g, ' ');
  const short = line.length > CELL_CHARS ? `${line.slice(0, CELL_CHARS - 1)}…` : line;
  return short
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_{}[\]()#+\-.!|~]/g, (char) => `\\${char}`);
}

const count = (n: number) => n.toLocaleString('en-US');

function verdict(report: Report): string {
  const { summary } = report;
  const records = `${count(summary.records)} record${summary.records === 1 ? '' : 's'}`;
  if (report.notes.some((note) => note.code.startsWith('interrupted'))) return `⚠️ interrupted: ${records}`;
  if (reportExitCode(report) === 1) return `❌ ${records}: ${count(summary.invalid)} invalid`;
  return `✅ ${records}: all valid`;
}

function where(group: IssueGroup): string {
  const first = group.examples[0];
  if (!first) return '';
  const line = first.line === null ? '' : `:${first.line}`;
  return `${cell(first.file)}${line}${first.index === null ? '' : ` (record ${first.index})`}`;
}

function* table(head: readonly string[], rows: Iterable<string[]>, total: number, what: string) {
  yield `| ${head.join(' | ')} |`;
  yield `|${head.map(() => ' --- |').join('')}`;
  let shown = 0;
  for (const row of rows) {
    if (shown++ === TABLE_ROWS) break;
    yield `| ${row.join(' | ')} |`;
  }
  if (total > TABLE_ROWS)
    yield `\n… ${count(total - TABLE_ROWS)} more ${what}: \`--format json\` lists them all`;
}

/**
 * The job summary of `--format github` (GitHub's `$GITHUB_STEP_SUMMARY`, Markdown): the verdict,
 * the counts, the issue groups and the files, each table cut to its first rows.
 */
export function stepSummary(report: Report, issues: ReportIssues): string {
  const { summary } = report;
  const lines = [`### collect: ${verdict(report)}`, ''];
  const counts: [string, number][] = [
    ['records', summary.records],
    ['valid', summary.valid],
    ['invalid', summary.invalid],
    ['errors', summary.errors],
    ['warnings', summary.warnings],
    ...(report.delivery
      ? ([
          ['sent', summary.sent],
          ['accepted', summary.accepted],
          ['rejected', summary.rejected],
          ['failed', summary.failed],
        ] as [string, number][])
      : []),
  ];
  lines.push(
    ...table(
      counts.map(([name]) => name),
      [counts.map(([, n]) => count(n))],
      1,
      '',
    ),
    '',
  );
  if (issues.groups.length > 0) {
    lines.push('#### Issues', '');
    const rows = issues.groups.map((group) => [
      group.severity === 'error' ? '❌ error' : '⚠️ warning',
      cell(group.code),
      cell(group.endpoint),
      cell(group.field),
      count(group.count),
      where(group),
      cell(`${group.message}${group.hint ? ` Fix: ${group.hint}` : ''}`),
    ]);
    lines.push(
      ...table(
        ['', 'rule', 'endpoint', 'field', 'count', 'first at', 'first message'],
        rows,
        rows.length,
        'groups',
      ),
      '',
    );
  }
  if (report.files.length > 0) {
    lines.push('#### Per file', '');
    const rows = report.files.map((file) => [
      cell(file.file),
      cell(file.endpoint),
      count(file.records),
      count(file.invalid),
    ]);
    lines.push(...table(['file', 'endpoint', 'records', 'invalid'], rows, rows.length, 'files'), '');
  }
  for (const note of report.notes.slice(0, ciLimits.annotationsPerKind))
    lines.push(
      `> ℹ️ **${cell(note.code)}**: ${cell(note.message)}${note.count === undefined ? '' : ` (${count(note.count)})`}`,
    );
  return `${lines.join('\n')}\n`;
}
