import type { Issue } from '../core/issue.js';
import type { FieldKind } from '../schema/introspect.js';

/** One CSV column of a header: the field it fills and how its cells convert. */
export interface CsvColumn {
  position: number;
  /** The field path the column fills: its header. */
  path: string;
  segments: string[];
  /** For each segment but the last: whether the next one is an array index (precomputed: rows are the hot path). */
  indexNext: boolean[];
  kind: FieldKind;
}

/** Builds one row's record from its cells. */
export type RowBuilder = (cells: readonly string[]) => { value: Record<string, unknown>; issues: Issue[] };
