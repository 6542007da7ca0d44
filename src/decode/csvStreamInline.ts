import { parse } from 'csv-parse';
import { csvErrorMessage, csvParseOptions, RowLines, type PieceOptions, type PieceRows } from './csvPiece.js';

/**
 * Parses CSV bytes on this thread as one stream, a batch of rows per read: for what cannot be
 * cut into pieces (a record with no boundary for megabytes). Same rows, lines and errors as the pieces.
 */
export async function* parseCsvStreamInline(
  bytes: AsyncIterable<Buffer>,
  options: PieceOptions,
): AsyncGenerator<PieceRows> {
  const counted = new RowLines();
  let failure: PieceRows['error'];
  const parser = parse(csvParseOptions(options));
  parser.on('data', (row: string[]) => counted.add(row));
  const settled = new Promise<void>((resolve) => {
    parser.on('error', (cause: Error & { code?: string }) => {
      failure ??= {
        code: cause.code ?? 'CSV_ERROR',
        message: csvErrorMessage(cause.message),
        line: counted.line,
      };
      resolve();
    });
    parser.on('end', resolve);
  });
  const take = (): PieceRows => ({
    ...counted.take(),
    lineCount: counted.line - 1,
    ...(failure ? { error: failure } : {}),
  });
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
