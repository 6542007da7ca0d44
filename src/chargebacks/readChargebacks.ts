import type { Readable } from 'node:stream';
import type { InputSpec } from '../decode/inputSpec.js';
import type { ReadHooks } from '../decode/mappedCsvRecords.js';
import { readRecords } from '../decode/readRecords.js';
import type { RawRecord } from '../decode/sourceRecord.js';
import { chargebackResource, type ChargebackRow } from './chargebackRow.js';
import type { ReadRow } from './matchChargebacks.js';

/** A report row as read, with its text as written (for --rejects). */
export interface ReportRow extends ReadRow {
  raw?: RawRecord | undefined;
}

/** One report file and how its rows become chargeback rows (a mapping entry with `endpoint: chargeback`). */
export interface ReportInput {
  spec: InputSpec;
  map?: ReadHooks;
}

/**
 * Every row of the reports, in order, checked against the chargeback row's schema (decoding and
 * schema problems are issues of their row, never thrown). A report is tens to thousands of rows:
 * they are held, with their text, for matching and --rejects.
 */
export async function readChargebacks(
  inputs: readonly ReportInput[],
  stdin: Readable,
  options: { maxRecordBytes: number; signal?: AbortSignal; now: Date; keepRaw: boolean },
): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  for (const input of inputs) {
    const records = readRecords(input.spec, chargebackResource, stdin, {
      hooks: input.map,
      limits: { maxRecordBytes: options.maxRecordBytes },
      signal: options.signal,
      now: options.now,
    });
    for await (const record of records) {
      rows.push({
        file: record.file,
        index: record.index,
        line: record.line,
        ...(record.value !== undefined && record.checked.issues.every((i) => i.severity !== 'error')
          ? { row: record.value as ChargebackRow }
          : {}),
        issues: record.checked.issues,
        // Each row's text only for --rejects: it is a third of what a row costs.
        ...(options.keepRaw ? { raw: record.raw } : {}),
      });
    }
  }
  return rows;
}
