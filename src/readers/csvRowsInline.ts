import { parse } from 'csv-parse';
import type { RowBatch } from './csvRows.js';

/** Line breaks inside quoted cells: a row spans one more line for each (as in csvParseWorker.js). */
function breaksInside(cells: readonly string[]): number {
  let breaks = 0;
  for (const cell of cells) {
    if (cell.indexOf('\n') === -1 && cell.indexOf('\r') === -1) continue;
    breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return breaks;
}

/**
 * Parses a small CSV input on this thread into one batch: the rows, lines and error the parse
 * worker would send for the same bytes (same csv-parse options, same line counting), without
 * the cost of starting a worker for a few kilobytes.
 */
export function parseCsvRowsInline(bytes: Buffer, maxRecordSize: number): Promise<RowBatch> {
  return new Promise((resolve) => {
    const rows: string[][] = [];
    const lines: number[] = [];
    let line = 1;
    let settled = false;
    const parser = parse({ bom: true, relax_column_count: true, max_record_size: maxRecordSize });
    parser.on('data', (row: string[]) => {
      const start = line;
      line += 1 + breaksInside(row);
      if (row.length === 1 && row[0] === '') return; // a blank line: counted, dropped
      rows.push(row);
      lines.push(start);
    });
    parser.on('error', (cause: Error & { code?: string }) => {
      if (settled) return;
      settled = true;
      resolve({ rows, lines, error: { code: cause.code ?? 'CSV_ERROR', message: cause.message, line } });
    });
    parser.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({ rows, lines, done: true });
    });
    parser.end(bytes);
  });
}
