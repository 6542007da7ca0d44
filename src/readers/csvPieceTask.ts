import { parseCsvPiece, type PieceRows, type RecordDelimiter } from './csvPiece.js';
import { createRowStage, type StagePlan, type StagedRows } from './csvRecordStage.js';

/** What a piece worker is started with for a CSV file: how to parse its pieces, and the plan to build and check their rows with. */
export interface CsvTaskOptions {
  format?: 'csv';
  maxRecordSize: number;
  delimiter: RecordDelimiter;
  plan?: StagePlan | undefined;
}

/** One piece's answer: its rows (or, staged, its checked records), lines counted from the piece's start. */
export type CsvPieceAnswer = PieceRows & { staged?: StagedRows };

/** The work on each piece of a CSV file: parse it, then build and check its rows when it has a plan. */
export function createCsvTask(options: CsvTaskOptions): (bytes: Buffer) => CsvPieceAnswer {
  const stage = options.plan ? createRowStage(options.plan) : undefined;
  const parseOptions = { maxRecordSize: options.maxRecordSize, delimiter: options.delimiter };
  return (bytes) => {
    const parsed = parseCsvPiece(bytes, parseOptions);
    if (!stage) return parsed;
    const { rows, lines, ...rest } = parsed;
    return { rows: [], lines: [], ...rest, staged: stage(rows, lines) };
  };
}
