import { parseCsvPiece } from './csvPiece.js';
import type { RowBatch } from './csvRows.js';

/**
 * Parses a small CSV input on this thread into one batch: the rows, lines and error the parse
 * workers give for the same bytes, without the cost of starting a worker for a few kilobytes.
 */
export function parseCsvRowsInline(bytes: Buffer, maxRecordSize: number): RowBatch {
  const { rows, lines, error } = parseCsvPiece(bytes, { maxRecordSize, first: true });
  return error ? { rows, lines, error } : { rows, lines, done: true };
}
