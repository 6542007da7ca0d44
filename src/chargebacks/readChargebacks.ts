import type { Readable } from 'node:stream';
import { warning, type Issue } from '../core/issue.js';
import { readRecords } from '../decode/readRecords.js';
import type { RawRecord } from '../decode/sourceRecord.js';
import { chargebackResource, type ChargebackRow } from './chargebackRow.js';
import { keyFields, presetRow } from './formats/presetRow.js';
import { networkName } from './formats/reportValues.js';
import { mangledIds } from './mangledId.js';
import type { Kind } from './formats/presetSpec.js';
import type { ReadRow } from './matchChargebacks.js';
import type { ReportInput } from './reportInputs.js';

export type { ReportInput } from './reportInputs.js';

/** A report row as read, with its text as written (for --rejects) and its class when it is no chargeback (A.0.4). */
export interface ReportRow extends ReadRow {
  raw?: RawRecord | undefined;
  rowClass?: 'fraud-notice' | 'not-chargeback';
  kind?: Kind;
}

/** One report file as read: its format, its rows (structure excluded), what it holds that nothing reads. */
export interface ReportFile {
  file: string;
  format: string;
  rows: number;
  /** The file's notes, said once (`ignored-columns`, `row-count-mismatch`, a second preset that also fitted). */
  notes: Issue[];
}

export interface ReadReport {
  rows: ReportRow[];
  files: ReportFile[];
}

const ignoredNote = (file: string, columns: readonly string[]): Issue =>
  warning(
    'ignored-columns',
    '',
    `${file}: ${columns.length === 1 ? 'the column' : 'the columns'} ` +
      `${columns.map((c) => JSON.stringify(c)).join(', ')} ${columns.length === 1 ? 'is' : 'are'} not ` +
      `read`,
    { hint: 'nothing to do: the columns a chargeback needs were read; --map reads others' },
  );

/** The keys of a row in collect's columns or a mapping's, checked for a spreadsheet's damage (A.0.6). */
function mangledKeys(row: ChargebackRow, csv: boolean): Issue[] {
  const keys = keyFields.flatMap((field) => {
    const value = row[field];
    return typeof value === 'string' ? [{ field, column: field, value, csv }] : [];
  });
  return mangledIds(keys, row.network === undefined ? undefined : networkName(row.network));
}

/** A preset's rows: each classed (chargeback, fraud notice, not a chargeback, unknown type) and checked. */
function presetRows(input: ReportInput, keepRaw: boolean, file: ReportFile): ReportRow[] {
  const { preset, read, alsoFits } = input.recognised!;
  if (read.ignored.length > 0) file.notes.push(ignoredNote(input.spec.name, read.ignored));
  if (alsoFits)
    file.notes.push(
      warning('format-also-fits', '', `${input.spec.name} fits ${alsoFits} too; read as ${preset.name}`),
    );
  const bodyRows = read.items.filter((item) => item.unknownType === undefined).length;
  if (read.declaredRows !== undefined && read.declaredRows !== bodyRows)
    file.notes.push(
      warning(
        'row-count-mismatch',
        '',
        `${input.spec.name}: the trailer declares ${read.declaredRows} rows, ${bodyRows} were read`,
        { hint: 'the file may be cut short: fetch it again' },
      ),
    );
  return read.items.map((item) => {
    const built = presetRow(item, preset);
    return {
      file: input.spec.name,
      index: item.index,
      line: item.line,
      ...(built.row !== undefined && built.rowClass !== 'invalid' ? { row: built.row } : {}),
      issues: built.issues,
      ...(built.rowClass === 'fraud-notice' || built.rowClass === 'not-chargeback'
        ? { rowClass: built.rowClass }
        : {}),
      ...(built.kind ? { kind: built.kind } : {}),
      ...(keepRaw ? { raw: item.raw } : {}),
    };
  });
}

/**
 * Every row of the reports, in order: collect's own columns and mapped files through the ordinary
 * readers (checked against the chargeback row's schema), presets through their reading (A.0).
 * Problems are issues of their row, never thrown. A report is tens to thousands of rows: they are
 * held, with their text, for matching and --rejects.
 */
export async function readChargebacks(
  inputs: readonly ReportInput[],
  stdin: Readable,
  options: { maxRecordBytes: number; signal?: AbortSignal; now: Date; keepRaw: boolean },
): Promise<ReadReport> {
  const rows: ReportRow[] = [];
  const files: ReportFile[] = [];
  for (const input of inputs) {
    const file: ReportFile = { file: input.spec.name, format: input.format, rows: 0, notes: [] };
    files.push(file);
    const before = rows.length;
    if (input.recognised) {
      rows.push(...presetRows(input, options.keepRaw, file));
      file.rows = rows.length - before;
      continue;
    }
    const ignored: string[] = [];
    const csv = input.spec.format === 'csv';
    const records = readRecords(input.spec, chargebackResource, stdin, {
      hooks: input.map,
      limits: { maxRecordBytes: options.maxRecordBytes },
      signal: options.signal,
      now: options.now,
    });
    for await (const record of records) {
      let issues = record.checked.issues;
      // The header's unknown columns: one note for the file, not an invalid row (docs/chargebacks.md).
      if (
        record.value === undefined &&
        issues.length > 0 &&
        issues.every((i) => i.code === 'unknown-field')
      ) {
        ignored.push(...issues.map((i) => i.path || i.message));
        continue;
      }
      const damaged = record.value === undefined ? [] : mangledKeys(record.value as ChargebackRow, csv);
      if (damaged.length > 0) issues = [...issues, ...damaged];
      rows.push({
        file: record.file,
        index: record.index,
        line: record.line,
        ...(record.value !== undefined && issues.every((i) => i.severity !== 'error')
          ? { row: record.value as ChargebackRow }
          : {}),
        issues,
        // Each row's text only for --rejects: it is a third of what a row costs.
        ...(options.keepRaw ? { raw: record.raw } : {}),
      });
    }
    if (ignored.length > 0) file.notes.push(ignoredNote(input.spec.name, ignored));
    for (const note of input.map?.notes ?? [])
      if (note.code === 'ignored-columns') file.notes.push(warning(note.code, '', note.message));
    file.rows = rows.length - before;
  }
  return { rows, files };
}
