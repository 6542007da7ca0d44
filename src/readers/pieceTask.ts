import { createCsvTask, type CsvPieceAnswer, type CsvTaskOptions } from './csvPieceTask.js';
import { createNdjsonTask, type NdjsonPiece, type NdjsonTaskOptions } from './ndjsonPieceTask.js';

/** What a piece worker is started with: a CSV or an NDJSON file's pieces to parse (and check). */
export type PieceTaskOptions = CsvTaskOptions | NdjsonTaskOptions;

/** The answer to one piece, by the file's format. */
export type PieceAnswer<O extends PieceTaskOptions> = O extends NdjsonTaskOptions ? NdjsonPiece : CsvPieceAnswer;

/** The work a piece worker (or the reading thread) does on each piece of a file. */
export function createPieceTask<O extends PieceTaskOptions>(options: O): (bytes: Buffer) => PieceAnswer<O> {
  const task = options.format === 'ndjson' ? createNdjsonTask(options) : createCsvTask(options);
  return task as (bytes: Buffer) => PieceAnswer<O>;
}
