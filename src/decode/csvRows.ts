import type { PieceOptions, PieceRows, RecordDelimiter } from './csvPiece.js';
import { parseCsvPiece } from './csvPiece.js';
import { createStage, type CsvPieceAnswer, type CsvTaskOptions } from './csvPieceTask.js';
import type { StagedRows } from './csvRecordStage.js';
import { PieceSplitter, findRecordEnd, type RecordScan } from '../parallel/pieceSplitter.js';
import { parseCsvStreamInline } from './csvStreamInline.js';
import { LineTally } from './lineTally.js';
import { answersInOrder } from '../parallel/pieceDriver.js';
import { PIECE_BYTES, PieceParsers, restOf, unsplittableBytes, workerCount } from './pieceParsers.js';

/** A batch of rows, in input order; the last one says `done` or carries the parse error that ended the input. */
export interface RowBatch {
  rows: string[][];
  /** The 1-based line each row starts on (blank lines and multi-line cells counted). */
  lines: number[];
  done?: true;
  /** The parse error that ended the input, with the line where the failing row starts. */
  error?: { code: string; message: string; line: number; linesAfter?: number };
  /** Staging: the rows built into records and checked where they were parsed (then `rows` is empty). */
  staged?: StagedRows;
}

/**
 * Records built and checked where they are parsed, with the plan `plan` makes of the header (undefined: stop
 * reading).
 */
export interface Staging {
  plan(header: string[], line: number | null): StagePlan | undefined;
}

type StagePlan = NonNullable<CsvTaskOptions['plan']>;

/** The rows of an input of rows of cells (CSV, Parquet): without `staging`, the header first, as a row. */
export type RowSource = (staging?: Staging) => AsyncIterable<RowBatch>;

/** The most bytes joined in search of a header's end. */
const HEADER_BYTES = 16 * 1024 * 1024;

/** A piece's rows (or staged records), moved `base - 1` lines down the file. */
function located(piece: CsvPieceAnswer | PieceRows, base: number): RowBatch {
  const shift = (lines: number[]) => (base === 1 ? lines : lines.map((line) => line + base - 1));
  const batch: RowBatch = { rows: piece.rows, lines: shift(piece.lines) };
  if ('staged' in piece && piece.staged) batch.staged = { ...piece.staged, lines: shift(piece.staged.lines) };
  if (piece.error) batch.error = { ...piece.error, line: piece.error.line + base - 1 };
  return batch;
}

/**
 * What cannot be cut into pieces, parsed as one stream on this thread (a record with no boundary
 * for megabytes: an unclosed quote, most often); with `staging`, its header (when still to come)
 * planned and its rows built and checked here.
 */
async function* streamed(
  rest: AsyncIterable<Buffer>,
  options: PieceOptions,
  base: number,
  staging: Staging | undefined,
  plan: StagePlan | undefined,
): AsyncGenerator<RowBatch> {
  let stage = plan ? await createStage(plan) : undefined;
  for await (const part of parseCsvStreamInline(rest, options)) {
    const batch = located(part, base);
    if (staging && !stage && batch.rows.length > 0) {
      const header = batch.rows.shift()!;
      const line = batch.lines.shift()!;
      const planned = staging.plan(header, line);
      if (!planned) return;
      stage = await createStage(planned);
    }
    if (stage) {
      batch.staged = stage(batch.rows, batch.lines);
      batch.rows = [];
      batch.lines = [];
    }
    yield batch;
    if (batch.error) return;
  }
  yield { rows: [], lines: [], done: true };
}

/** The pieces after the header, parsed by the workers, in input order. */
async function* pieces(
  head: Buffer,
  input: AsyncIterator<Buffer>,
  options: CsvTaskOptions & { limit: number; base: number; pieceBytes: number },
  staging: Staging | undefined,
): AsyncGenerator<RowBatch> {
  const { maxRecordSize, delimiter, plan, limit } = options;
  const workers = new PieceParsers(workerCount(), { maxRecordSize, delimiter, plan });
  const splitter = new PieceSplitter(delimiter, options.pieceBytes, limit);
  let base = options.base;
  for await (const answer of answersInOrder(head, input, splitter, workers)) {
    const batch = located(answer, base);
    base += answer.lineCount;
    yield batch;
    if (batch.error) return;
  }
  if (splitter.overflowed)
    yield* streamed(restOf(splitter.end(), input), { maxRecordSize, delimiter }, base, staging, plan);
  else yield { rows: [], lines: [], done: true };
}

/**
 * Parses CSV bytes into rows of cells: the header on this thread, the rest cut into pieces at
 * record boundaries and parsed (and, with `staging`, built and checked) on worker threads side by
 * side, one per core. Batches come back in input order; an error ends them after the rows before it.
 */
export async function* parseCsvRows(
  bytes: AsyncIterable<Buffer>,
  maxRecordSize: number,
  staging?: Staging,
  pieceBytes = PIECE_BYTES,
): AsyncGenerator<RowBatch> {
  const source = bytes[Symbol.asyncIterator]();
  const tally = new LineTally();
  const counted: AsyncIterator<Buffer> = {
    next: async () => {
      const step = await source.next();
      if (!step.done) tally.count(step.value);
      return step;
    },
    return: async () => (await source.return?.()) ?? { done: true, value: undefined },
  };
  for await (const batch of batchesOf(counted, maxRecordSize, staging, pieceBytes)) {
    if (batch.error) {
      // The rest of the input, only counted: an error ends the reading, and the count says how much it left.
      for (let step = await source.next(); !step.done; step = await source.next()) tally.count(step.value);
      batch.error.linesAfter = Math.max(0, tally.lines - batch.error.line);
    }
    yield batch;
  }
}

async function* batchesOf(
  input: AsyncIterator<Buffer>,
  maxRecordSize: number,
  staging: Staging | undefined,
  pieceBytes: number,
): AsyncGenerator<RowBatch> {
  const limit = unsplittableBytes(maxRecordSize, pieceBytes);
  // Joined read by read while it is sought: past this, a header is read as a stream (no export's header comes near it).
  const headerLimit = Math.min(limit > 0 ? limit : Infinity, HEADER_BYTES);
  let buffered: Buffer = Buffer.alloc(0);
  let complete = false;
  let from = 0;
  let base = 1;
  let delimiter: RecordDelimiter | undefined;
  let header: { cells: string[]; line: number } | undefined;
  try {
    // The header (after any blank lines), record by record on this thread.
    let scan: RecordScan = { at: 0, quoted: false };
    while (!header) {
      const found = findRecordEnd(buffered, from, delimiter, complete, scan);
      if (!found) {
        // The end of the input, or a header with no boundary for megabytes: no pieces to cut.
        if (complete || buffered.length - from > headerLimit) {
          yield* streamed(
            restOf(buffered.subarray(from), input),
            { maxRecordSize, first: from === 0, delimiter },
            base,
            staging,
            undefined,
          );
          return;
        }
        const step = await input.next();
        if (step.done) complete = true;
        else buffered = buffered.length === 0 ? step.value : Buffer.concat([buffered, step.value]);
        continue;
      }
      const parsed = parseCsvPiece(buffered.subarray(from, found.end), {
        maxRecordSize,
        first: from === 0,
        delimiter,
      });
      const part = located(parsed, base);
      delimiter = found.delimiter;
      base += parsed.lineCount;
      from = found.end;
      scan = { at: from, quoted: false };
      if (part.error) {
        yield part;
        return;
      }
      if (part.rows.length > 0) header = { cells: part.rows[0]!, line: part.lines[0]! };
    }
    const plan = staging?.plan(header.cells, header.line);
    if (staging && !plan) return;
    if (!staging) yield { rows: [header.cells], lines: [header.line] };
    yield* pieces(
      buffered.subarray(from),
      input,
      { maxRecordSize, delimiter: delimiter!, plan, limit, base, pieceBytes },
      staging,
    );
  } finally {
    await input.return?.();
  }
}
