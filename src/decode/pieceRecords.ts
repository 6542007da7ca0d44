import type { CheckedRecord } from '../check/checkRecord.js';
import type { SourceRecord } from './sourceRecord.js';

/**
 * A record as a piece worker answers it: its line (from the piece's first), its check; with `values` its
 * value and text.
 */
export interface PieceRecord {
  line: number;
  checked: CheckedRecord;
  /** Undefined: it could not be read, or the reader asked for no values. */
  value?: unknown;
  /** Null: a line too long to keep. */
  text?: string | null;
}

/** A piece's answer in a format of records (NDJSON, a JSON array): its records, and the lines it spans. */
export interface RecordsPiece {
  records: PieceRecord[];
  lineCount: number;
}

/** One piece's records, in order, from line `base` and record `index` of the file. */
export function* piecesRecords(
  piece: RecordsPiece,
  file: string,
  base: number,
  index: number,
): Generator<SourceRecord> {
  for (const [n, { line, checked, value, text }] of piece.records.entries()) {
    const record: SourceRecord = {
      file,
      index: index + n,
      line: line + base - 1,
      issues: checked.issues,
      checked,
    };
    if (value !== undefined) record.value = value;
    if (text !== undefined && text !== null) record.raw = { kind: 'text', text };
    yield record;
  }
}
