/**
 * What `map init` reads from a column's sample cells: its datetime pattern, its number style, how to quote
 * and show it.
 */
import { compilePattern } from './datetimePattern.js';
import { readNumber } from './readCell.js';

/** One export file as `map init` sees it: its name, header and the first rows. */
export interface SampledFile {
  file: string;
  header: readonly string[];
  rows: readonly (readonly string[])[];
  /** How its bytes were read (exportDialect.ts); absent: `,` and UTF-8. */
  dialect?: import('./exportDialect.js').CsvDialect;
}

/** Patterns tried, in order, on a column's sample cells; the first that reads them all is proposed. */
const PATTERNS = [
  'iso',
  'yyyy-MM-dd HH:mm:ss',
  'yyyy-MM-dd HH:mm',
  'yyyy-MM-dd',
  'M/d/yyyy H:mm:ss',
  'M/d/yyyy H:mm',
  'M/d/yyyy h:mm a',
  'dd/MM/yyyy HH:mm:ss',
  'dd/MM/yyyy HH:mm',
  'd/M/yyyy H:mm',
  'M/d/yyyy',
  'dd/MM/yyyy',
  'dd.MM.yyyy HH:mm',
];
const ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/i;

/** A header folded for comparison: lower case, letters and digits only. */
export const fold = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A column's non-empty sample cells, trimmed. */
export const cellsOf = (sample: SampledFile, position: number, rows = sample.rows) =>
  rows.map((row) => (row[position] ?? '').trim()).filter((cell) => cell !== '');

/** The pattern that reads every cell (`iso` for cells with an offset or Z), or undefined. */
export function guessDatetime(cells: readonly string[]): string | undefined {
  if (cells.length === 0) return undefined;
  for (const pattern of PATTERNS) {
    if (pattern === 'iso') {
      if (cells.every((cell) => ISO.test(cell.trim()))) return 'iso';
      continue;
    }
    const parse = compilePattern(pattern);
    if (typeof parse !== 'string' && cells.every((cell) => parse(cell) !== undefined)) return pattern;
  }
  return undefined;
}

/** The number style the cells need, or undefined when they are plain numbers (or not numbers). */
export function guessNumber(cells: readonly string[]): 'decimal-comma' | 'decimal-point' | undefined {
  if (cells.length === 0 || cells.every((cell) => /^-?\d+(\.\d+)?$/.test(cell.trim()))) return undefined;
  if (
    cells.every((cell) => readNumber(cell, 'decimal-comma') !== undefined) &&
    cells.some((cell) => /,\d{1,2}\s*$/.test(cell))
  )
    return 'decimal-comma';
  return cells.every((cell) => readNumber(cell, 'decimal-point') !== undefined) ? 'decimal-point' : undefined;
}

/** A YAML scalar: bare when it is plain text YAML would not read as another type, else JSON-quoted. */
export const quote = (text: string) =>
  /^[\w./-]+$/.test(text) && !/^(true|false|null|yes|no|on|off|~|[\d.]+)$/i.test(text)
    ? text
    : JSON.stringify(text);

/** A sample cell as a YAML comment may show it: one line, no control characters, at most 40 characters. */
export function shown(cell: string): string {
  // eslint-disable-next-line no-control-regex -- control, separator and bidi characters are what it removes
  const flat = cell.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ');
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}

/** The reason a proposal gives: `from the header "Created at" and values like 2025-05-11 09:55:16 -0400`. */
export function because(header: string, cells: readonly string[]): string {
  const examples = [...new Set(cells)]
    .slice(0, 2)
    .map((cell) => (cell.includes(',') ? JSON.stringify(shown(cell)) : shown(cell)));
  return (
    `from the header ${JSON.stringify(shown(header))}` +
    `${examples.length ? ` and values like ${examples.join(', ')}` : ''}`
  );
}
