import type { Readable } from 'node:stream';
import type { RowSource } from './csvRows.js';
import type { InputSpec } from './inputSpec.js';
import type { ReadCheck, ReadLimits, SourceRecord } from './sourceRecord.js';

/**
 * What a format's reader is given: the input, its bytes (decompressed), the limits, and the check to make
 * where it is read.
 */
export interface ReadContext {
  spec: InputSpec;
  stream: Readable;
  limits: ReadLimits;
  check: ReadCheck | undefined;
}

/** A row of a file read as plain objects (`collect decisions`): its value at its line, or why it is none. */
export type ObjectRow = { line: number; value: unknown } | { line: number; problem: string };

interface ReaderBase {
  /** Its rows as plain objects, for files of rows that are no endpoint's records (decisions). */
  objects?(spec: InputSpec, stream: Readable): AsyncGenerator<ObjectRow>;
}

/** A format of records (JSON, NDJSON): read into records, each checked where it is read. */
export interface RecordsReader extends ReaderBase {
  shape: 'records';
  records(context: ReadContext): AsyncGenerator<SourceRecord>;
}

/**
 * A format of rows of cells under a header (CSV, Parquet): its rows become records as CSV's do
 * (convert/csvColumns.ts), a mapping reads them, and its rejects are written as CSV rows.
 */
export interface RowsReader extends ReaderBase {
  shape: 'rows';
  rows(context: ReadContext): RowSource;
}

/** How the files of one input format are read (decode/inputFormats.ts). */
export type FormatReader = RecordsReader | RowsReader;
