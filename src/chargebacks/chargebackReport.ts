import type { ChalkInstance } from 'chalk';
import { exitCodes, type ExitCode } from '../core/exitCodes.js';
import type { LocatedIssue } from '../core/issue.js';
import { terminalText } from '../core/terminalText.js';
import { reportChunks, type FormatOptions, type ReportFormat } from '../report/formatReport.js';
import type { Report } from '../report/report.js';
import { issuesOf, type ReportIssues } from '../report/reportIssues.js';
import { freshMarker, streamedJson } from '../report/streamedJson.js';
import type { ReportFile } from './readChargebacks.js';
import {
  matchKeys,
  outcomes,
  type MatchResult,
  type RowOutcome,
  type RowVerdict,
} from './matchChargebacks.js';

/** The outcomes a person must look at: nothing was sent for these rows, and no re-run will send it by itself. */
export const needsHuman: readonly RowOutcome[] = ['unmatched', 'ambiguous', 'refused', 'invalid'];

/** The exit code of a chargebacks run: a row that needs a human makes a clean run 1, a dry run too. */
export function chargebacksExitCode(run: ExitCode, match: MatchResult): ExitCode {
  const needs = needsHuman.some((outcome) => match.counts[outcome] > 0);
  return run === exitCodes.ok && needs ? exitCodes.invalid : run;
}

/** One row of the `chargebacks` object of `--format json`: its place, outcome, ids and issues. */
function rowJson(v: RowVerdict) {
  return {
    file: v.file,
    line: v.line,
    index: v.index,
    outcome: v.outcome,
    ...(v.kind === undefined ? {} : { kind: v.kind }),
    ...(v.acquirerId === undefined ? {} : { acquirer_id: v.acquirerId }),
    ...(v.orderId === undefined ? {} : { order_id: v.orderId }),
    ...(v.matchedBy === undefined ? {} : { matched_by: v.matchedBy }),
    ...(v.category === undefined ? {} : { category: v.category }),
    ...v.read,
    issues: v.issues.map(({ severity, code, path, message, hint }) => ({
      severity,
      code,
      path,
      message,
      ...(hint ? { hint } : {}),
    })),
  };
}

/** Each report file's format and rows (source-files.md A.0.9), and its notes said once. */
const filesJson = (files: readonly ReportFile[]) =>
  files.map(({ file, format, rows, notes }) => ({
    file,
    format,
    rows,
    ...(notes.length > 0 ? { notes: notes.map(({ code, message }) => ({ code, message })) } : {}),
  }));

/**
 * The `chargebacks` object of `--format json`: the files, the counts, the marks, and every row with its
 * outcome and issues.
 */
export function chargebacksJson(match: MatchResult, files: readonly ReportFile[] = []) {
  return {
    files: filesJson(files),
    counts: match.counts,
    matched_by: match.matchedBy,
    marks: match.marks.length,
    rows: match.verdicts.map(rowJson),
  };
}

/**
 * `--format json`: `{ "chargebacks": …, …the run's report }` written piece by piece, the rows and
 * the run's issues streamed (streamedJson.ts): a million rows pass V8's cap on one string.
 */
function* chargebacksJsonChunks(
  match: MatchResult,
  files: readonly ReportFile[],
  run: Iterable<string>,
): Generator<string> {
  const marker = freshMarker();
  const rows = (function* () {
    for (const v of match.verdicts) yield rowJson(v);
  })();
  yield '{\n  "chargebacks": ';
  const head = {
    files: filesJson(files),
    counts: match.counts,
    matched_by: match.matchedBy,
    marks: match.marks.length,
    rows: marker,
  };
  for (const chunk of streamedJson(head, marker, rows)) yield chunk.replace(/\n/g, '\n  ');
  // The run's report is an object at the same depth: its keys follow, without its opening brace.
  let opened = false;
  for (const chunk of run) {
    if (opened) yield chunk;
    else if (chunk.length > 0) {
      opened = true;
      yield `,\n${chunk.replace(/^\{\n/, '')}`;
    }
  }
}

const where = (v: RowVerdict) => `${v.file}${v.line === null ? '' : `:${v.line}`}`;

/** The pretty section: the counts on one line, then each row needing a human as `file:line outcome: message`. */
export function chargebacksPretty(
  match: MatchResult,
  color: ChalkInstance,
  dryRun: boolean,
  files: readonly ReportFile[] = [],
): string {
  const optional: readonly string[] = ['not-fraud', 'fraud-notice', 'not-chargeback'];
  const shown = outcomes.filter((o) => !optional.includes(o) || match.counts[o] > 0);
  const lines = [
    color.bold(`chargebacks: ${match.verdicts.length} rows`),
    // One line per file: its format, its rows, then its notes (A.0.9).
    ...files.flatMap((f) => [
      `  ${terminalText(f.file)}: ${f.format}, ${f.rows} ${f.rows === 1 ? 'row' : 'rows'}`,
      ...f.notes.map((note) => `    ${note.code}: ${terminalText(note.message)}`),
    ]),
    `  ${shown.map((o) => `${o} ${match.counts[o]}`).join(', ')}`,
    `  matched by ${matchKeys.map((k) => `${k} ${match.matchedBy[k]}`).join(', ')}`,
    `  ${match.marks.length} fraud ${match.marks.length === 1 ? 'mark' : 'marks'} (chargeback) ` +
      `${dryRun ? 'to send' : 'for sending'}`,
  ];
  const human = match.verdicts.filter((v) => needsHuman.includes(v.outcome));
  if (human.length > 0) lines.push('', color.underline('rows that need a human'));
  for (const v of human) {
    const first = v.issues.find((i) => i.severity === 'error') ?? v.issues[0];
    lines.push(
      `  ${terminalText(where(v))}  ${color.red(v.outcome)}  ` +
        `${first ? `${first.code}: ${terminalText(first.message)}` : ''}`,
    );
    if (first?.hint) lines.push(`      fix: ${terminalText(first.hint)}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/** Every row's issues as the report's issues (endpoint `chargeback`), for the formats that annotate lines. */
function rowIssues(match: MatchResult): LocatedIssue[] {
  return match.verdicts.flatMap((v) =>
    v.issues.map((issue) => ({
      ...issue,
      endpoint: 'chargeback',
      file: v.file,
      index: v.index,
      line: v.line,
    })),
  );
}

/** The run's report with the chargebacks in it, in the asked format: one document per format. */
export function* chargebackReportChunks(
  match: MatchResult,
  report: Report,
  issues: ReportIssues,
  format: ReportFormat,
  color: ChalkInstance,
  options: FormatOptions & { dryRun: boolean; exitCode: ExitCode; files?: readonly ReportFile[] },
): Generator<string> {
  const reportFiles = options.files ?? [];
  if (format === 'pretty') {
    yield chargebacksPretty(match, color, options.dryRun, reportFiles);
    const human = match.verdicts.filter((v) => needsHuman.includes(v.outcome)).length;
    yield* reportChunks(report, issues, format, color, {
      allIssues: options.allIssues === true,
      exitCode: options.exitCode,
      ...(human > 0
        ? { verdictNote: ` · ${human} ${human === 1 ? 'row needs' : 'rows need'} a human (above)` }
        : {}),
    });
    return;
  }
  if (format === 'json') {
    yield* chargebacksJsonChunks(match, reportFiles, reportChunks(report, issues, format, color));
    return;
  }
  // junit, github, sarif: the rows' issues annotate the report's own lines, before the marks' issues.
  const own = rowIssues(match);
  const all = [...own, ...issues];
  const files = [...new Set(match.verdicts.map((v) => v.file))].map((file) => ({
    file,
    endpoint: 'chargeback',
    records: match.verdicts.filter((v) => v.file === file).length,
    invalid: match.verdicts.filter((v) => v.file === file && needsHuman.includes(v.outcome)).length,
  }));
  const merged: Report = {
    ...report,
    issues: all.slice(0, 20),
    files: [...files, ...report.files],
    summary: {
      ...report.summary,
      errors: report.summary.errors + own.filter((i) => i.severity === 'error').length,
      warnings: report.summary.warnings + own.filter((i) => i.severity === 'warning').length,
    },
  };
  yield* reportChunks(merged, issuesOf(all), format, color, options);
}
