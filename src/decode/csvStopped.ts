import { CollectError } from '../core/errors.js';
import { exitCodes } from '../core/exitCodes.js';
import type { RowBatch } from './csvRows.js';

/** A parse error that ends a CSV input, with how many lines of the input follow the line it starts on. */
export type CsvFailure = NonNullable<RowBatch['error']>;

/**
 * A CSV whose parsing fails mid-file stops the run (exit 2), naming where and how much was not
 * read: the rows after a stray quote would otherwise be in no count, no verdict and no rejects file.
 * A row too long (`CSV_MAX_RECORD_SIZE`) stays a located issue of its own.
 */
export function stopAtCsvError(file: string, failure: CsvFailure): void {
  if (failure.code === 'CSV_MAX_RECORD_SIZE') return;
  const cause =
    failure.code === 'CSV_QUOTE_NOT_CLOSED'
      ? 'a quoted cell that starts here is never closed'
      : failure.message;
  const after = failure.linesAfter ?? 0;
  throw new CollectError(
    `${file}:${failure.line}: the CSV cannot be read past this line (${cause}); reading stopped, ` +
      `${after.toLocaleString('en-US')} line${after === 1 ? '' : 's'} after it not read`,
    'invalid-csv',
    exitCodes.usage,
    'fix the quote on that line (a field with a quote must be wrapped in quotes, its quotes doubled) and run again',
  );
}
