import { createCsvTask, type CsvPieceAnswer, type CsvTaskOptions } from './csvPieceTask.js';
import type { InputFormat } from './formatName.js';
import { createJsonTask, type JsonPiece, type JsonTaskOptions } from './jsonPieceTask.js';
import { createParquetTask, type ParquetTaskOptions } from './parquetPieceTask.js';
import { createNdjsonTask, type NdjsonPiece, type NdjsonTaskOptions } from './ndjsonPieceTask.js';

/**
 * What a piece worker is started with, by the file's format (decode/inputFormats.ts): its pieces to read (and
 * check).
 */
export type PieceTaskOptions = CsvTaskOptions | NdjsonTaskOptions | JsonTaskOptions | ParquetTaskOptions;

/** The answer to one piece, by the file's format. */
export type PieceAnswer<O extends PieceTaskOptions> = O extends NdjsonTaskOptions
  ? NdjsonPiece
  : O extends JsonTaskOptions
    ? JsonPiece
    : CsvPieceAnswer;

/**
 * What is done to each piece of a file; `last`: the input's last piece (a JSON array told its end). A
 * promise: it reads its piece.
 */
export type PieceTask<O extends PieceTaskOptions> = (
  bytes: Buffer,
  last?: boolean,
) => PieceAnswer<O> | Promise<PieceAnswer<O>>;

type AnyTask = (bytes: Buffer, last?: boolean) => unknown;

/** Each format's piece task (a format read by no worker has none). */
const tasks: Partial<Record<InputFormat, (options: never) => AnyTask | Promise<AnyTask>>> = {
  csv: createCsvTask,
  ndjson: createNdjsonTask,
  json: createJsonTask,
  parquet: createParquetTask,
};

/**
 * The work a piece worker (or the reading thread) does on each piece of a file; a promise while its code
 * loads (a mapped file's).
 */
export function createPieceTask<O extends PieceTaskOptions>(
  options: O,
): PieceTask<O> | Promise<PieceTask<O>> {
  const create = tasks[options.format ?? 'csv']!;
  return create(options as never) as PieceTask<O> | Promise<PieceTask<O>>;
}
