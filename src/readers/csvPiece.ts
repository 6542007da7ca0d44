import { parse as parseCsv } from 'csv-parse/sync';

/** The record delimiter of a CSV file, as csv-parse finds it: the first line break outside quotes. */
export type RecordDelimiter = '\n' | '\r\n' | '\r';

/** The rows of one piece of a CSV file that starts and ends at record boundaries. */
export interface PieceRows {
  rows: string[][];
  /** The 1-based line each row starts on, counted from the piece's first line (blank lines and multi-line cells counted). */
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
export function breaksInside(cells: readonly string[]): number {
  let breaks = 0;
  for (const cell of cells) {
    if (cell.indexOf('\n') === -1 && cell.indexOf('\r') === -1) continue;
    breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return breaks;
}

/** csv-parse counts lines its own way and per piece: the row's line is given beside the message instead. */
export function csvErrorMessage(message: string): string {
  return message.replace(/ at line \d+/, '');
}

function optionsFor(options: PieceOptions) {
  return {
    bom: options.first === true, relax_column_count: true, max_record_size: options.maxRecordSize,
    ...(options.delimiter ? { record_delimiter: options.delimiter } : {}),
  };
}

/** The rows csv-parse reads before it fails (the failing parse again, keeping each row as it comes). */
function rowsBeforeFailure(bytes: Buffer, options: PieceOptions): string[][] {
  const rows: string[][] = [];
  try {
    parseCsv(bytes, { ...optionsFor(options), on_record: (row: string[]) => void rows.push(row) });
  } catch {
    // The same failure: the rows before it are kept.
  }
  return rows;
}

/**
 * Parses one piece of a CSV file with csv-parse (its synchronous API: no stream per piece), so
 * that pieces cut at record boundaries can be parsed on any thread and in any order. Blank
 * lines are counted and dropped; an error keeps the rows before it.
 */
export function parseCsvPiece(bytes: Buffer, options: PieceOptions): PieceRows {
  let records: string[][];
  let failure: (Error & { code?: string }) | undefined;
  try {
    records = parseCsv(bytes, optionsFor(options)) as string[][];
  } catch (cause) {
    failure = cause as Error & { code?: string };
    records = rowsBeforeFailure(bytes, options);
  }
  const rows: string[][] = [];
  const lines: number[] = [];
  let line = 1;
  for (const row of records) {
    const start = line;
    line += 1 + breaksInside(row);
    if (row.length === 1 && row[0] === '') continue;
    rows.push(row);
    lines.push(start);
  }
  const piece: PieceRows = { rows, lines, lineCount: line - 1 };
  if (failure) piece.error = { code: failure.code ?? 'CSV_ERROR', message: csvErrorMessage(failure.message), line };
  return piece;
}
