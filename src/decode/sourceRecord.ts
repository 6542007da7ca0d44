import type { Issue } from '../core/issue.js';
import type { CheckedRecord } from '../check/checkRecord.js';

/** One record as decoded from an input, with its location; `checked` once held to its endpoint. */
export interface SourceRecord {
  /** The input's display name: its path as given, or `-` for standard input. */
  file: string;
  /** 0-based position in the file; null for a problem with the file as a whole (a bad header). */
  index: number | null;
  /** 1-based line where the record starts; null where unknown. */
  line: number | null;
  /** The record; absent when it could not be read at all. */
  value?: unknown;
  /** Problems found while decoding (bad JSON, a cell that is not a number). */
  issues: Issue[];
  /**
   * The record's one check (check/checkRecord.ts), where its decoder made it (on a worker); readRecords
   * checks the rest.
   */
  checked?: CheckedRecord;
  /** Its fields were already checked against the schema when the file's header was read (CSV). */
  fieldsChecked?: true;
  /** The record as written in its input, for a rejects file in the same format. */
  raw?: RawRecord;
  /** A mapped record's list elements: the file and line of the row each came from, by path (`payments.0`). */
  children?: ReadonlyMap<string, { file: string; line: number }>;
}

/** A CSV row with its file's header, or the text of a JSON element or an NDJSON line. */
export type RawRecord = RawCsvRow | { kind: 'text'; text: string };

/** A CSV row as written; a mapped record's also names its line and the other rows it was built from. */
export interface RawCsvRow {
  kind: 'csv';
  header: readonly string[];
  cells: readonly string[];
  /** The row's line in its file (a mapped record's): the same row reached twice is written once. */
  line?: number;
  /**
   * The rows of the record's lists and lookups, each with its file (as the mapping names it) and that file's
   * header.
   */
  related?: RelatedRawRow[];
}

/** A row of a list or a lookup that built a mapped record. */
export interface RelatedRawRow {
  file: string;
  line: number;
  header: readonly string[];
  cells: readonly string[];
}

/**
 * What a run needs of each record read: its location, issues and order id only (`ids`); those and
 * its flow facts and content hash (`digests`); or the record itself too (`values`, the default).
 */
export type RecordNeeds = 'ids' | 'digests' | 'values';

/**
 * How an input is checked where it is read: its endpoint (of the built-in registry), the run's clock, what
 * the run needs of each record.
 */
export interface ReadCheck {
  endpoint: string;
  now: Date;
  needs: RecordNeeds;
}

/** Limits on hostile input: a record larger than this is reported, not read (`--max-record-bytes`). */
export interface ReadLimits {
  maxRecordBytes: number;
}

export const defaultLimits: ReadLimits = { maxRecordBytes: 1024 * 1024 };
