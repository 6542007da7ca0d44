import { createCsvTask, type CsvPieceAnswer, type CsvTaskOptions } from './csvPieceTask.js';
import { createJsonTask, type JsonPiece, type JsonTaskOptions } from './jsonPieceTask.js';
import { createNdjsonTask, type NdjsonPiece, type NdjsonTaskOptions } from './ndjsonPieceTask.js';

/** What a piece worker is started with: a CSV, NDJSON or JSON file's pieces to decode (and check). */
export type PieceTaskOptions = CsvTaskOptions | NdjsonTaskOptions | JsonTaskOptions;

/** The answer to one piece, by the file's format. */
export type PieceAnswer<O extends PieceTaskOptions> = O extends NdjsonTaskOptions
  ? NdjsonPiece
  : O extends JsonTaskOptions
    ? JsonPiece
    : CsvPieceAnswer;

/** What is done to each piece of a file; `last`: the input's last piece (a JSON array told its end). */
export type PieceTask<O extends PieceTaskOptions> = (bytes: Buffer, last?: boolean) => PieceAnswer<O>;

/** The work a piece worker (or the reading thread) does on each piece of a file; a promise while its code loads (a mapped file's). */
export function createPieceTask<O extends PieceTaskOptions>(
  options: O,
): PieceTask<O> | Promise<PieceTask<O>> {
  const task =
    options.format === 'ndjson'
      ? createNdjsonTask(options)
      : options.format === 'json'
        ? createJsonTask(options)
        : createCsvTask(options);
  return task as PieceTask<O> | Promise<PieceTask<O>>;
}
