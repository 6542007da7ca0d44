import { createCsvTask, type CsvPieceAnswer, type CsvTaskOptions } from './csvPieceTask.js';
import { createNdjsonTask, type NdjsonPiece, type NdjsonTaskOptions } from './ndjsonPieceTask.js';

/** What a piece worker is started with: a CSV or an NDJSON file's pieces to parse (and check). */
export type PieceTaskOptions = CsvTaskOptions | NdjsonTaskOptions;

/** The answer to one piece, by the file's format. */
export type PieceAnswer<O extends PieceTaskOptions> = O extends NdjsonTaskOptions ? NdjsonPiece : CsvPieceAnswer;

/** What is done to each piece of a file. */
export type PieceTask<O extends PieceTaskOptions> = (bytes: Buffer) => PieceAnswer<O>;

/** The work a piece worker (or the reading thread) does on each piece of a file; a promise while its code loads (a mapped file's). */
export function createPieceTask<O extends PieceTaskOptions>(options: O): PieceTask<O> | Promise<PieceTask<O>> {
  const task = options.format === 'ndjson' ? createNdjsonTask(options) : createCsvTask(options);
  return task as PieceTask<O> | Promise<PieceTask<O>>;
}
