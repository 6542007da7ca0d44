import { cell, count, escapeHtml as esc, percent, shortText } from './html.js';
import { barChart, timelineChart, type Bar } from './htmlCharts.js';
import { issuesSection, wrappablePath } from './htmlIssues.js';
import { htmlStyle } from './htmlStyle.js';
import type { Insights } from './insights.js';
import { reportIsFaulty, type FileSummary, type Report } from './report.js';
import type { ReportIssues } from './reportIssues.js';

/** What the HTML report adds to the report: the run's counts (insights.ts) and the page's title. */
export interface HtmlOptions {
  insights?: Insights;
  /** What was checked, e.g. the command line (shown as text, escaped). */
  title?: string;
  /** The report's entries are a sandbox session's requests (a record each), not files: the page lists requests. */
  requests?: boolean;
}

/** The first line of every HTML report collect writes: --report-html overwrites only a file that starts with it. */
export const HTML_REPORT_MARK = '<!DOCTYPE html><!-- collect html report -->';

/** Files shown: past them the page sums up the rest in a line, so its size stays bounded. */
export const FILES_SHOWN = 200;
export { GROUPS_SHOWN } from './htmlIssues.js';

// Every text from input or the network (files, fields, messages, values, decisions, notes) goes through esc().
const num = (n: number) => `<td class="num">${count(n)}</td>`;

function verdictOf(report: Report): { kind: string; text: string } {
  const unfinished = report.notes.some(
    (note) => note.code.startsWith('interrupted') || note.code === 'max-errors',
  );
  if (reportIsFaulty(report)) return { kind: 'fail', text: 'Problems found' };
  if (unfinished) return { kind: 'warn', text: 'Unfinished' };
  if (report.summary.warnings > 0) return { kind: 'pass', text: 'Valid, with warnings' };
  return { kind: 'pass', text: 'All valid' };
}

function summarySection(report: Report, requests: boolean): string {
  const { summary, delivery } = report;
  const verdict = verdictOf(report);
  const tiles: [string, number, string?][] = [
    [requests ? 'requests' : 'records', summary.records],
    ['valid', summary.valid, 'good'],
    ['invalid', summary.invalid, summary.invalid > 0 ? 'poor' : ''],
    ['errors', summary.errors, summary.errors > 0 ? 'poor' : ''],
    ['warnings', summary.warnings, summary.warnings > 0 ? 'fair' : ''],
  ];
  if (delivery)
    tiles.push(
      ['sent', summary.sent],
      ['accepted', summary.accepted, 'good'],
      ['rejected', summary.rejected, summary.rejected > 0 ? 'poor' : ''],
      ['failed', summary.failed, summary.failed > 0 ? 'poor' : ''],
      ['retried', delivery.retried, delivery.retried > 0 ? 'fair' : ''],
      ['skipped', summary.skipped],
      ['not sent', summary.unsent ?? 0, (summary.unsent ?? 0) > 0 ? 'fair' : ''],
    );
  const tileHtml = tiles
    .map(
      ([label, n, kind]) =>
        `<div class="tile ${kind ?? ''}"><div class="n">${count(n)}</div><div class="label">${label}</div></div>`,
    )
    .join('');
  return (
    `<section id="summary"><p class="verdict ${verdict.kind}">${verdict.text}</p><div class="tiles">` +
    `${tileHtml}</div></section>`
  );
}

const entryHead = '<th>records</th><th>valid</th><th>invalid</th><th>invalid share</th>';
const entryCells = (records: number, invalid: number) =>
  `${num(records)}${num(records - invalid)}${num(invalid)}<td class="num">${percent(invalid, records)}</td>`;

function perEndpoint(files: readonly FileSummary[]) {
  const endpoints = new Map<string, { records: number; invalid: number; files: number }>();
  for (const file of files) {
    const entry = endpoints.get(file.endpoint) ?? { records: 0, invalid: 0, files: 0 };
    entry.records += file.records;
    entry.invalid += file.invalid;
    entry.files++;
    endpoints.set(file.endpoint, entry);
  }
  return [...endpoints];
}

function countsSection(report: Report): string {
  const endpointRows = perEndpoint(report.files)
    .map(([endpoint, e]) => `<tr>${cell(endpoint)}${cell(e.files)}${entryCells(e.records, e.invalid)}</tr>`)
    .join('');
  const fileRows = report.files
    .slice(0, FILES_SHOWN)
    .map(
      (f) =>
        `<tr><td class="file">${wrappablePath(shortText(f.file, 200))}</td>${cell(f.endpoint)}` +
        `${entryCells(f.records, f.invalid)}</tr>`,
    )
    .join('');
  const more =
    report.files.length > FILES_SHOWN
      ? `<p class="more">… and ${count(report.files.length - FILES_SHOWN)} more files.</p>`
      : '';
  return (
    `<section id="counts"><h2>Per endpoint</h2><table><thead><tr><th>endpoint</th><th>files</th>` +
    `${entryHead}</tr></thead><tbody>${endpointRows}</tbody></table>` +
    `<h2>Per file</h2><table><thead><tr><th>file</th><th>endpoint</th>${entryHead}` +
    `</tr></thead><tbody>${fileRows}</tbody></table>${more}</section>`
  );
}

/**
 * A sandbox session's entries are its requests, a record each: counted per endpoint, then listed, those with
 * errors first.
 */
function requestsSection(report: Report): string {
  const endpointRows = perEndpoint(report.files)
    .map(
      ([endpoint, e]) =>
        `<tr>${cell(endpoint)}${num(e.records)}${num(e.records - e.invalid)}${num(e.invalid)}<td ` +
        `class="num">${percent(e.invalid, e.records)}</td></tr>`,
    )
    .join('');
  const listed = [
    ...report.files.filter((f) => f.invalid > 0),
    ...report.files.filter((f) => f.invalid === 0),
  ];
  const rows = listed
    .slice(0, FILES_SHOWN)
    .map(
      (f) =>
        `<tr class="${f.invalid > 0 ? 'error' : ''}">${cell(shortText(f.file, 200), 'request')}` +
        `${cell(f.endpoint)}${cell(f.invalid > 0 ? 'with errors' : 'valid')}</tr>`,
    )
    .join('');
  const more =
    listed.length > FILES_SHOWN
      ? `<p class="more">… and ${count(listed.length - FILES_SHOWN)} more requests.</p>`
      : '';
  return (
    `<section id="counts"><h2>Per ` +
    `endpoint</h2><table><thead><tr><th>endpoint</th><th>requests</th><th>valid</th><th>with ` +
    `errors</th><th>share with errors</th></tr></thead><tbody>${endpointRows}</tbody></table>` +
    `<h2>Requests</h2><p>Each request the session judged, those with errors ` +
    `first.</p><table><thead><tr><th>request</th><th>endpoint</th><th>verdict</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>${more}</section>`
  );
}

function coverageSection(insights: Insights): string {
  const charts = insights.coverage
    .filter((entry) => entry.fields.length > 0 && entry.records > 0)
    .map((entry) => {
      const bars: Bar[] = entry.fields.map((f) => ({
        label: f.label,
        detail: f.path,
        part: f.count,
        whole: entry.records,
      }));
      return (
        `<h3>${esc(entry.endpoint)} <span class="dim">(${count(entry.records)} ` +
        `${entry.records === 1 ? 'record' : 'records'})</span></h3>` +
        `${barChart(`field coverage of ${entry.endpoint}`, bars)}`
      );
    });
  const body =
    charts.length > 0
      ? charts.join('')
      : '<p class="empty">No records of an endpoint with fields to cover.</p>';
  return (
    `<section id="coverage"><h2>Field coverage</h2><p>The share of records that carry each field the ` +
    `service's fraud models use (a non-empty value), valid or not.</p>${body}</section>`
  );
}

function flowSection(insights: Insights): string {
  const { flow } = insights;
  if (!flow)
    return `<section id="flow"><h2>Flow coverage</h2><p class="empty">No order's records in this run.</p></section>`;
  const bars: Bar[] = [
    { label: 'orders with a creation', part: flow.created, whole: flow.orders },
    { label: 'orders with at least one status', part: flow.withStatus, whole: flow.orders },
    {
      label: 'platform declines with fraud mark',
      part: flow.platformDeclinedMarked,
      whole: flow.platformDeclined,
    },
    { label: 'payments with an acquirer id', part: flow.paymentsWithAcquirer, whole: flow.payments },
  ];
  // Shown apart and never coloured: a fraud mark is forbidden for the service's declines (§1.5), unknown for
  // the undecided.
  const apart = [
    flow.serviceDeclined > 0
      ? `<li>${count(flow.serviceDeclined)} declined by the service's own evaluation: no fraud mark ` +
        `is sent for them (§1.5)</li>`
      : '',
    flow.undecidedDeclined > 0
      ? `<li>${count(flow.undecidedDeclined)} declined with no decision of the service known ` +
        `(evaluated, or created outside collect): whose decline it is cannot be told; <code>collect ` +
        `decisions FILE</code> loads the platform's decisions</li>`
      : '',
  ].join('');
  return (
    `<section id="flow"><h2>Flow coverage</h2><p>${count(flow.orders)} orders, ` +
    `${count(flow.declined)} of them declined (${count(flow.platformDeclined)} by the platform, ` +
    `where a fraud mark is expected), ${count(flow.payments)} payments: this run's records with ` +
    `what the state knew of earlier runs.</p>` +
    `${barChart('flow coverage', bars)}${apart ? `<ul class="apart">${apart}</ul>` : ''}</section>`
  );
}

function sendingSection(report: Report, insights: Insights | undefined): string {
  const timeline = insights?.timeline;
  const decisions = { ...report.delivery?.decisions, ...insights?.decisions };
  const faults = Object.entries(insights?.faults ?? {});
  if (!report.delivery && !timeline && faults.length === 0 && Object.keys(decisions).length === 0) return '';
  const parts = ['<section id="sending"><h2>Sending</h2>'];
  if (timeline) parts.push(timelineChart(timeline));
  if (report.delivery) {
    const rows = Object.entries(report.delivery.endpoints)
      .map(
        ([endpoint, e]) =>
          `<tr>${cell(endpoint)}${num(e.sent)}${num(e.accepted)}${num(e.rejected)}${num(e.failed)}</tr>`,
      )
      .join('');
    parts.push(
      `<table><thead><tr><th>endpoint</th><th>sent</th><th>accepted</th><th>rejected</th><th>` +
        `failed</th></tr></thead><tbody>${rows}</tbody></table>`,
      `<p>Requests made again (timeouts, dropped connections, 429, 5xx): <b>${count(report.delivery.retried)}</b>.</p>`,
    );
  }
  if (faults.length > 0)
    parts.push(
      '<h3>Answers not given (sent again by the caller)</h3>',
      barChart(
        'faults',
        faults.map(([label, n]) => ({ label, part: n, whole: n })),
        { counts: true },
      ),
    );
  const decided = Object.entries(decisions);
  parts.push('<h3>Evaluation decisions</h3>');
  parts.push(
    decided.length > 0
      ? barChart(
          'evaluation decisions',
          decided.map(([label, n]) => ({ label, part: n, whole: n })),
          { counts: true },
        )
      : '<p class="empty">No evaluation decision was given.</p>',
  );
  parts.push('</section>');
  return parts.join('');
}

function notesSection(report: Report): string {
  if (report.notes.length === 0) return '';
  const items = report.notes
    .map(
      (note) =>
        `<li><code>${esc(note.code)}</code> ${esc(shortText(note.message, 600))}` +
        `${note.count === undefined ? '' : ` <span class="count">${count(note.count)}</span>`}</li>`,
    )
    .join('');
  return `<section id="notes"><h2>Notes</h2><ul>${items}</ul></section>`;
}

/**
 * `--format html` and `--report-html`: one self-contained page (inline CSS and SVG, no script,
 * a policy that forbids loading anything), of counts and groups only, so that its size does
 * not grow with the number of records. Piece by piece, as the other formats.
 */
export function* htmlChunks(
  report: Report,
  issues: ReportIssues,
  options: HtmlOptions = {},
): Generator<string> {
  const title = options.title ? `collect report: ${shortText(options.title, 200)}` : 'collect report';
  yield (
    `${HTML_REPORT_MARK}\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ` +
    `'unsafe-inline'; img-src data:">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="generator" content="collect">` +
    `<title>${esc(title)}</title><style>${htmlStyle}</style></head><body><main>` +
    `<h1>${esc(title)}</h1>\n`
  );
  yield `${summarySection(report, options.requests === true)}\n`;
  yield `${issuesSection(issues)}\n`;
  yield `${options.requests ? requestsSection(report) : countsSection(report)}\n`;
  if (options.insights) {
    yield `${coverageSection(options.insights)}\n`;
    yield `${flowSection(options.insights)}\n`;
  }
  yield `${sendingSection(report, options.insights)}\n`;
  yield `${notesSection(report)}\n`;
  yield '<footer>Written by collect. Every value from the input is shown as text.</footer></main></body></html>\n';
}
