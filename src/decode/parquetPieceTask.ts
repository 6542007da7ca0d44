import type { AsyncBuffer } from 'hyparquet';
import { createStage, type CsvPieceAnswer, type CsvTaskOptions } from './csvPieceTask.js';
import { cellsOf, parquetColumns } from './parquetColumns.js';

/**
 * How a worker reads the row groups of a Parquet file: the file's path, and the plan its rows are built and
 * checked with.
 */
export interface ParquetTaskOptions {
  format: 'parquet';
  /** The file (a worker opens it itself); absent on this thread, given the file's bytes. */
  path?: string;
  maxRecordSize: number;
  plan?: CsvTaskOptions['plan'];
}

/** A piece of a Parquet file: the rows of one row group, 0-based, the end excluded. */
export interface ParquetPiece {
  rowStart: number;
  rowEnd: number;
}

type Task = (bytes: Buffer) => Promise<CsvPieceAnswer>;

/**
 * The work on each piece of a Parquet file: its rows read (hyparquet, loaded only for Parquet), made
 * the cells a CSV row holds, each numbered by its row (1-based), then built and checked as CSV rows are.
 */
export async function createParquetTask(options: ParquetTaskOptions, given?: AsyncBuffer): Promise<Task> {
  const { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } =
    await import('hyparquet');
  const file = given ?? (await asyncBufferFromFile(options.path!));
  const metadata = await parquetMetadataAsync(file);
  const columns = parquetColumns(parquetSchema(metadata));
  const stage = options.plan ? await createStage(options.plan) : undefined;
  return async (bytes) => {
    const { rowStart, rowEnd } = JSON.parse(bytes.toString('utf8')) as ParquetPiece;
    const objects = await parquetReadObjects({ file, metadata, rowStart, rowEnd });
    const rows = objects.map((row) => cellsOf(row, columns));
    const lines = rows.map((_, n) => rowStart + n + 1);
    const answer = { rows, lines, lineCount: rows.length };
    return stage ? { ...answer, rows: [], lines: [], staged: stage(rows, lines) } : answer;
  };
}
