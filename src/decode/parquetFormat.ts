import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { InputError } from '../core/errors.js';
import type { RowBatch, Staging } from './csvRows.js';
import type { ReadContext, RowsReader } from './formatReader.js';
import { answersInOrder, type Cutter } from '../parallel/pieceDriver.js';
import { parquetColumns, rowGroupRanges } from './parquetColumns.js';
import { createParquetTask, type ParquetTaskOptions } from './parquetPieceTask.js';
import { PieceParsers, workerCount } from './pieceParsers.js';

/** The bytes every Parquet file starts (and ends) with. */
const PARQUET_MAGIC = 'PAR1';

/** Parquet's pieces are made whole (a row group each): the cutter passes each on as it is. */
const wholePieces = (): Cutter => ({
  push: (piece) => (piece.length > 0 ? [piece] : []),
  end: () => Buffer.alloc(0),
  complete: () => Buffer.alloc(0),
  overflowed: false,
});

async function* piecesOf(ranges: readonly object[]): AsyncGenerator<Buffer> {
  for (const range of ranges) yield Buffer.from(JSON.stringify(range));
}

/** The bytes of standard input or a gzipped file, held whole: Parquet is read from its end. */
async function wholeInput(stream: AsyncIterable<Buffer>): Promise<AsyncBuffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const whole = Buffer.concat(chunks);
  const buffer = whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer;
  return { byteLength: buffer.byteLength, slice: (start, end) => buffer.slice(start, end) };
}

async function opened({ spec, stream }: ReadContext): Promise<{ file: AsyncBuffer; metadata: FileMetaData }> {
  const { asyncBufferFromFile, parquetMetadataAsync } = await import('hyparquet');
  const onDisk = spec.name !== '-' || spec.path !== undefined;
  const file =
    onDisk && !spec.gzip
      ? await asyncBufferFromFile(spec.path ?? spec.name)
      : await wholeInput(stream as AsyncIterable<Buffer>);
  if (onDisk && !spec.gzip) stream.destroy();
  try {
    const head = Buffer.from(await file.slice(0, 4));
    if (head.toString('latin1') !== PARQUET_MAGIC) throw new Error(`it does not start with ${PARQUET_MAGIC}`);
    return { file, metadata: await parquetMetadataAsync(file) };
  } catch (cause) {
    throw new InputError(
      `${spec.name}: not a Parquet file (${(cause as Error).message})`,
      'check that the file is a complete Parquet export, or name it after its real format (.csv, .json, .ndjson)',
    );
  }
}

/**
 * A Parquet file's rows, as rows of CSV cells under a header (parquetColumns.ts): without `staging`
 * the header first; each row group a piece, read on the workers side by side when the file has
 * several and is on disk, else here.
 */
async function* rowBatches(context: ReadContext, staging: Staging | undefined): AsyncGenerator<RowBatch> {
  const { file, metadata } = await opened(context);
  const { parquetSchema } = await import('hyparquet');
  const header = parquetColumns(parquetSchema(metadata)).map((column) => column.name);
  const plan = staging?.plan(header, null);
  if (staging && !plan) return;
  if (!staging) yield { rows: [header], lines: [0] };
  const ranges = rowGroupRanges(metadata);
  const path = context.spec.gzip
    ? undefined
    : (context.spec.path ?? (context.spec.name === '-' ? undefined : context.spec.name));
  const options: ParquetTaskOptions = { format: 'parquet', maxRecordSize: 0, ...(plan ? { plan } : {}) };
  if (path !== undefined && ranges.length > 1) {
    const readers = new PieceParsers(workerCount(), { ...options, path });
    for await (const answer of answersInOrder(Buffer.alloc(0), piecesOf(ranges), wholePieces(), readers))
      yield { rows: answer.rows, lines: answer.lines, ...(answer.staged ? { staged: answer.staged } : {}) };
  } else {
    const task = await createParquetTask(options, file);
    for (const range of ranges) {
      const answer = await task(Buffer.from(JSON.stringify(range)));
      yield { rows: answer.rows, lines: answer.lines, ...(answer.staged ? { staged: answer.staged } : {}) };
    }
  }
  yield { rows: [], lines: [], done: true };
}

/** Parquet: rows of typed columns, read as the same rows in CSV would be; its rejects are written as CSV rows. */
export const parquetFormat: RowsReader = {
  shape: 'rows',
  rows: (context) => (staging) => rowBatches(context, staging),
};
