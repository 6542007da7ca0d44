import { parse } from 'csv-parse/sync';
import { headerKey } from './foldText.js';

/** One physical record of a delimited file: its cells and the line it starts on (1-based, blank lines counted). */
export interface Line {
  cells: string[];
  line: number;
}

export const delimiters = [',', ';', '\t'] as const;

/** A CSV or TSV text as records (quotes honoured, ragged rows allowed, blank lines skipped but counted). */
export function delimitedLines(text: string, delimiter: string): Line[] {
  const records = parse(text, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    bom: true,
    info: true,
  }) as unknown as { record: string[]; info: { lines: number } }[];
  return records
    .filter(({ record }) => record.some((cell) => cell.trim() !== ''))
    .map(({ record, info }) => ({
      cells: record,
      line: info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0),
    }));
}

/** Where the header is: the first of the first 20 lines whose folded cells hold every one of `wanted` (A.0.1). */
export function headerIndex(lines: readonly Line[], wanted: readonly string[]): number {
  for (const [i, line] of lines.slice(0, 20).entries()) {
    const cells = new Set(line.cells.map(headerKey));
    if (wanted.every((w) => cells.has(w))) return i;
  }
  return -1;
}

/** The delimiter of A.0.1: the one that splits the text's first line with content into the most cells. */
export function delimiterOf(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 20);
  let best: string = ',';
  let most = 0;
  for (const d of delimiters) {
    const cells = Math.max(0, ...lines.map((l) => l.split(d).length));
    if (cells > most) [best, most] = [d, cells];
  }
  return best;
}
