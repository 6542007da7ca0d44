import { parse } from 'csv-parse';
import { breaksInside, csvErrorMessage, type PieceOptions, type PieceRows } from './csvPiece.js';

/**
 * Parses CSV bytes on this thread as one stream, a batch of rows per read: for what cannot be
 * cut into pieces (a record with no boundary for megabytes). Same rows, lines and errors as the pieces.
 */
export async function* parseCsvStreamInline(bytes: AsyncIterable<Buffer>, options: PieceOptions): AsyncGenerator<PieceRows> {
  let rows: string[][] = [];
  let lines: number[] = [];
  let line = 1;
  let failure: PieceRows['error'];
  const parser = parse({
    bom: options.first === true, relax_column_count: true, max_record_size: options.maxRecordSize,
    ...(options.delimiter ? { record_delimiter: options.delimiter } : {}),
  });
  parser.on('data', (row: string[]) => {
    const start = line;
    line += 1 + breaksInside(row);
    if (row.length === 1 && row[0] === '') return;
    rows.push(row);
    lines.push(start);
  });
  const settled = new Promise<void>((resolve) => {
    parser.on('error', (cause: Error & { code?: string }) => {
      failure ??= { code: cause.code ?? 'CSV_ERROR', message: csvErrorMessage(cause.message), line };
      resolve();
    });
    parser.on('end', resolve);
  });
  const take = (): PieceRows => {
    const batch: PieceRows = { rows, lines, lineCount: line - 1, ...(failure ? { error: failure } : {}) };
    rows = [];
    lines = [];
    return batch;
  };
  for await (const chunk of bytes) {
    await new Promise<void>((resolve) => parser.write(chunk, () => resolve()));
    if (failure) break;
    yield take();
  }
  if (!failure) parser.end();
  await settled;
  // Rows are emitted asynchronously: the last ones, and the end or the error, come after the writes.
  await new Promise((resolve) => setImmediate(resolve));
  yield take();
}
