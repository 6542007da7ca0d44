import type { CsvEncoding } from './textEncoding.js';

/**
 * A CSV file's dialect (`csv:`); a part left out is inherited (top, entry, list or lookup), else `,`, `"` and
 * utf-8.
 */
export interface CsvDialect {
  delimiter?: string;
  quote?: string;
  encoding?: CsvEncoding;
}

/** One CSV cell, quoted when it holds a comma, a quote or a line break. */
export const csvCell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** One cell in a dialect's delimiter and quote: quoted when it holds either or a line break. */
function dialectCell(text: string, delimiter: string, quote: string): string {
  return text.includes(delimiter) || text.includes(quote) || /[\r\n]/.test(text)
    ? `${quote}${text.replaceAll(quote, quote + quote)}${quote}`
    : text;
}

/** One CSV line of cells, without the line break: `,` and `"` unless the dialect says otherwise. */
export const csvLine = (cells: readonly string[], dialect?: CsvDialect) => {
  const delimiter = dialect?.delimiter ?? ',';
  const quote = dialect?.quote ?? '"';
  if (delimiter === ',' && quote === '"') return cells.map(csvCell).join(',');
  return cells.map((cell) => dialectCell(cell, delimiter, quote)).join(delimiter);
};
