import { parse as parseCsv } from 'csv-parse/sync';
import { fastPaths } from '../fast/fastPaths.js';
import { breaksIn, readPlainCsv, type RecordDelimiter } from '../fast/plainCsv.js';

export type { RecordDelimiter } from '../fast/plainCsv.js';

/** The rows of one piece of a CSV file that starts and ends at record boundaries. */
export interface PieceRows {
  rows: string[][];
  /**
   * The 1-based line each row starts on, counted from the piece's first line (blank lines and multi-line
   * cells counted).
   */
  lines: number[];
  /** The lines the piece spans: the next piece starts this many lines later. */
  lineCount: number;
  /** The parse error that ends the input, with the line where the failing row starts (same counting). */
  error?: { code: string; message: string; line: number };
}

export interface PieceOptions {
  maxRecordSize: number;
  /** The file's delimiter; absent: found as csv-parse finds it (the file's first piece). */
  delimiter?: RecordDelimiter | undefined;
  /** The file's first piece: a byte order mark is dropped. */
  first?: boolean;
}

/** Line breaks inside quoted cells: a row spans one more line for each. */
function breaksInside(cells: readonly string[]): number {
  let breaks = 0;
  for (const cell of cells) breaks += breaksIn(cell);
  return breaks;
}

/** csv-parse counts lines its own way and per piece: the row's line is given beside the message instead. */
export function csvErrorMessage(message: string): string {
  return message.replace(/ at line \d+/, '');
}

/** csv-parse's options for a piece (or a stream): collect's, with the file's delimiter once known. */
export function csvParseOptions(options: PieceOptions) {
  return {
    bom: options.first === true,
    relax_column_count: true,
    max_record_size: options.maxRecordSize,
    ...(options.delimiter ? { record_delimiter: options.delimiter } : {}),
  };
}

/** Rows as csv-parse gives them, each with the line it starts on: blank lines counted and dropped. */
export class RowLines {
  rows: string[][] = [];
  lines: number[] = [];
  /** The line the next row starts on. */
  line = 1;

  add(row: string[]): void {
    const start = this.line;
    this.line += 1 + breaksInside(row);
    if (row.length === 1 && row[0] === '') return;
    this.rows.push(row);
    this.lines.push(start);
  }

  /** The rows so far, and their lines; counting goes on from here. */
  take(): { rows: string[][]; lines: number[] } {
    const { rows, lines } = this;
    this.rows = [];
    this.lines = [];
    return { rows, lines };
  }
}

/** The rows csv-parse reads before it fails (the failing parse again, keeping each row as it comes). */
function rowsBeforeFailure(bytes: Buffer, options: PieceOptions): string[][] {
  const rows: string[][] = [];
  try {
    parseCsv(bytes, { ...csvParseOptions(options), on_record: (row: string[]) => void rows.push(row) });
  } catch {
    // The same failure: the rows before it are kept.
  }
  return rows;
}

/**
 * Parses one piece of a CSV file as csv-parse reads it (readPlainCsv where the piece is plain
 * CSV, else csv-parse's synchronous API: no stream per piece), so that pieces cut at record
 * boundaries can be parsed on any thread and in any order. Blank lines are counted and
 * dropped; an error keeps the rows before it.
 */
export function parseCsvPiece(bytes: Buffer, options: PieceOptions): PieceRows {
  // Once the file's delimiter is known, plain pieces (nearly all) are read without csv-parse.
  if (fastPaths && options.delimiter && options.first !== true) {
    const plain = readPlainCsv(bytes.toString('utf8'), options.delimiter, options.maxRecordSize);
    if (plain) return plain;
  }
  let records: string[][];
  let failure: (Error & { code?: string }) | undefined;
  try {
    records = parseCsv(bytes, csvParseOptions(options)) as string[][];
  } catch (cause) {
    failure = cause as Error & { code?: string };
    records = rowsBeforeFailure(bytes, options);
  }
  const counted = new RowLines();
  for (const row of records) counted.add(row);
  const piece: PieceRows = { ...counted.take(), lineCount: counted.line - 1 };
  if (failure)
    piece.error = {
      code: failure.code ?? 'CSV_ERROR',
      message: csvErrorMessage(failure.message),
      line: counted.line,
    };
  return piece;
}
