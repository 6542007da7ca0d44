import { parseCsvPiece, type PieceRows, type RecordDelimiter } from './csvPiece.js';
import { createRowStage, type StagePlan, type StagedRows } from './csvRecordStage.js';
import type { MappedStagePlan } from './mappedStage.js';

/**
 * What a piece worker is started with for a CSV file: how to parse its pieces, and the plan to build and
 * check their rows with.
 */
export interface CsvTaskOptions {
  format?: 'csv';
  maxRecordSize: number;
  delimiter: RecordDelimiter;
  plan?: StagePlan | MappedStagePlan | undefined;
}

/** One piece's answer: its rows (or, staged, its checked records), lines counted from the piece's start. */
export type CsvPieceAnswer = PieceRows & { staged?: StagedRows };

type Stage = (rows: string[][], lines: number[]) => StagedRows;

/**
 * The stage of a plan; a mapped file's code (luxon's time zones among it) is loaded only when a mapped file
 * is read.
 */
export function createStage(plan: StagePlan | MappedStagePlan): Stage | Promise<Stage> {
  if ('mapped' in plan)
    return import('./mappedStage.js').then(({ createMappedStage }) => createMappedStage(plan));
  return createRowStage(plan);
}

/** The work on each piece of a CSV file: parse it, then build and check its rows when it has a plan. */
export function createCsvTask(
  options: CsvTaskOptions,
): ((bytes: Buffer) => CsvPieceAnswer) | Promise<(bytes: Buffer) => CsvPieceAnswer> {
  const parseOptions = { maxRecordSize: options.maxRecordSize, delimiter: options.delimiter };
  const task =
    (stage: Stage | undefined) =>
    (bytes: Buffer): CsvPieceAnswer => {
      const parsed = parseCsvPiece(bytes, parseOptions);
      if (!stage) return parsed;
      const { rows, lines, ...rest } = parsed;
      return { rows: [], lines: [], ...rest, staged: stage(rows, lines) };
    };
  const stage = options.plan ? createStage(options.plan) : undefined;
  return stage instanceof Promise ? stage.then(task) : task(stage);
}
