import { parse } from 'csv-parse/sync';

/** How an export's CSV is written, as mapping.md's `csv:` says it. */
export interface CsvDialect {
  delimiter: ',' | ';' | '\t';
  encoding: 'utf-8' | 'windows-1252';
}

export const DEFAULT_DIALECT: CsvDialect = { delimiter: ',', encoding: 'utf-8' };

/** An export's first bytes read: its dialect, header and first rows. */
export interface ExportSample {
  dialect: CsvDialect;
  header: string[];
  rows: string[][];
}

const DELIMITERS: CsvDialect['delimiter'][] = [',', ';', '\t'];

/**
 * UTF-8 when the bytes are valid UTF-8 (a sequence cut at the end of the sample aside), else what Excel
 * writes in Europe and Brazil.
 */
export function detectEncoding(bytes: Uint8Array): CsvDialect['encoding'] {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The delimiter the header line uses most, outside quotes; a tie or none is `,`. */
export function detectDelimiter(headerLine: string): CsvDialect['delimiter'] {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best: CsvDialect['delimiter'] = ',';
  for (const delimiter of DELIMITERS) if (counts.get(delimiter)! > counts.get(best)!) best = delimiter;
  return best;
}

/** The first line of a text, a quoted line break kept inside it. */
function firstLine(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) return text.slice(0, i);
  }
  return text;
}

/**
 * Reads the first bytes of an export (`complete`: the whole file) as `map init` needs them: its
 * encoding and delimiter detected, its header and up to `limit` rows (a row cut by the sample's end dropped).
 */
export function sampleExport(bytes: Uint8Array, complete: boolean, limit = 200): ExportSample {
  const encoding = detectEncoding(bytes);
  let text = new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
  if (!complete) {
    const end = Math.max(text.lastIndexOf('\n'), 0);
    text = text.slice(0, end);
  }
  const delimiter = detectDelimiter(firstLine(text));
  let records: string[][];
  try {
    records = parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      to: limit + 1,
    });
  } catch {
    // A sample that does not parse to the end (a quote left open by the cut): what parses line by line.
    records = text
      .split(/\r?\n/)
      .filter((line) => line !== '')
      .slice(0, limit + 1)
      .map((line) => line.split(delimiter));
  }
  const [header = [], ...rows] = records;
  return { dialect: { delimiter, encoding }, header, rows };
}
