import type { SourceRecord } from './sourceRecord.js';
import { checkedAt, type PackedRecords } from './packedRecords.js';
import type { Issue } from '../core/issue.js';

export type { PieceRecord } from './packedRecords.js';

/** A piece's answer in a format of records (NDJSON, a JSON array): its records, packed, and the lines it spans. */
export interface RecordsPiece {
  packed: PackedRecords;
  lineCount: number;
}

/** One piece's records, in order, from line `base` and record `index` of the file. */
export function* piecesRecords(
  piece: RecordsPiece,
  file: string,
  base: number,
  index: number,
): Generator<SourceRecord> {
  const { packed } = piece;
  let withIssues = 0;
  for (let n = 0; n < packed.count; n++) {
    let issues: Issue[] = [];
    if (packed.issues[withIssues]?.[0] === n) issues = packed.issues[withIssues++]![1];
    const checked = checkedAt(packed, n, issues);
    const record: SourceRecord = {
      file,
      index: index + n,
      line: packed.lines[n]! + base - 1,
      issues,
      checked,
    };
    const value = packed.values?.[n];
    const text = packed.texts?.[n];
    if (value !== undefined) record.value = value;
    if (text !== undefined && text !== null) record.raw = { kind: 'text', text };
    yield record;
  }
}
