import type { Issue } from '../core/issue.js';
import type { CheckedRecord } from '../check/checkRecord.js';
import type { Facts } from '../resources/resource.js';

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

/**
 * A piece's checked records as columns, the form they cross from a worker in: structured cloning copies a typed
 * array whole, but an object field by field, its key written each time.
 */
export interface PackedRecords {
  count: number;
  lines: Int32Array;
  coverage: Float64Array;
  /** A creation's packed flow where the run reads ids only; NaN for none. */
  flows: Float64Array;
  orderIds: string[];
  /** The records with issues: their position and issues, the rest having none. */
  issues: [number, Issue[]][];
  /** Present where any record has facts (a run that wants digests). */
  facts?: (Facts | null)[];
  hashes?: string[];
  /** Present where the reader asked for values: each record's value and text (null: too long to keep). */
  values?: unknown[];
  texts?: (string | null | undefined)[];
}

/** Packs a piece's records, on the worker. */
export function packRecords(records: readonly PieceRecord[]): PackedRecords {
  const count = records.length;
  const packed: PackedRecords = {
    count,
    lines: new Int32Array(count),
    coverage: new Float64Array(count),
    flows: new Float64Array(count),
    orderIds: new Array<string>(count),
    issues: [],
  };
  for (let n = 0; n < count; n++) {
    const { line, checked, value, text } = records[n]!;
    packed.lines[n] = line;
    packed.coverage[n] = checked.coverage;
    packed.flows[n] = checked.flow ?? NaN;
    packed.orderIds[n] = checked.orderId;
    if (checked.issues.length > 0) packed.issues.push([n, checked.issues]);
    if (checked.facts !== null)
      (packed.facts ??= new Array<Facts | null>(count).fill(null))[n] = checked.facts;
    if (checked.hash !== '') (packed.hashes ??= new Array<string>(count).fill(''))[n] = checked.hash;
    if (value !== undefined || text !== undefined) {
      (packed.values ??= new Array<unknown>(count))[n] = value;
      (packed.texts ??= new Array<string | null | undefined>(count))[n] = text;
    }
  }
  return packed;
}

/** Record `n`'s check again, on the reading thread, with its issues (taken in order from `packed.issues`). */
export function checkedAt(packed: PackedRecords, n: number, issues: Issue[]): CheckedRecord {
  const checked: CheckedRecord = {
    issues,
    orderId: packed.orderIds[n]!,
    facts: packed.facts?.[n] ?? null,
    hash: packed.hashes?.[n] ?? '',
    coverage: packed.coverage[n]!,
  };
  const flow = packed.flows[n]!;
  if (!Number.isNaN(flow)) checked.flow = flow;
  return checked;
}
