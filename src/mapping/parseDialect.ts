import { isScalar, type Node } from 'yaml';
import type { CsvDialect, CsvEncoding } from './mappingSpec.js';

/** Encoding names as exports and tools write them, to the three a mapping reads. */
const ENCODINGS: Record<string, CsvEncoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  latin1: 'latin1',
  'latin-1': 'latin1',
  'iso-8859-1': 'latin1',
};

type Problem = (node: Node | null | undefined, message: string, hint?: string) => void;

/** One character that may split or quote cells (not a line break). */
function character(node: Node | null | undefined, what: string, problem: Problem): string | undefined {
  const text = isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
  const value = text === 'tab' || text === '\\t' ? '\t' : text;
  if (value !== undefined && [...value].length === 1 && value !== '\n' && value !== '\r') return value;
  problem(node, `csv ${what} is one character`, `e.g. ${what}: ";" (or "\\t" for tabs)`);
  return undefined;
}

/** `csv: { delimiter, quote, encoding }`: its mistakes go to `problem`. */
export function readDialect(parts: Map<string, Node | null>, problem: Problem): CsvDialect {
  const dialect: CsvDialect = {};
  if (parts.has('delimiter')) {
    const delimiter = character(parts.get('delimiter'), 'delimiter', problem);
    if (delimiter !== undefined) dialect.delimiter = delimiter;
  }
  if (parts.has('quote')) {
    const quote = character(parts.get('quote'), 'quote', problem);
    if (quote !== undefined) dialect.quote = quote;
  }
  if (dialect.quote !== undefined && dialect.quote === dialect.delimiter) {
    problem(parts.get('quote'), 'csv quote and delimiter must differ');
    delete dialect.quote;
  }
  if (parts.has('encoding')) {
    const node = parts.get('encoding');
    const name = isScalar(node) ? String(node.value).trim().toLowerCase() : '';
    const encoding = ENCODINGS[name];
    if (encoding) dialect.encoding = encoding;
    else
      problem(
        node,
        `csv encoding must be utf-8, windows-1252 or latin1${name ? `, not "${name}"` : ''}`,
        'Excel in Brazil and Europe writes windows-1252 ("ANSI"); convert other encodings with iconv first',
      );
  }
  return dialect;
}
