import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvParseOptions } from '../decode/csvPiece.js';
import { readPlainCsv, type RecordDelimiter } from './plainCsv.js';
import { random } from '../../test/helpers/random.js';

/**
 * What csv-parse reads from the text with collect's options: rows, the lines they start on (blank ones
 * dropped) and the lines spanned; or that it fails.
 */
function csvParseReads(text: string, delimiter: RecordDelimiter, maxRecordSize: number) {
  let records: string[][];
  try {
    records = parse(Buffer.from(text), csvParseOptions({ maxRecordSize, delimiter })) as string[][];
  } catch {
    return 'fails';
  }
  const rows: string[][] = [];
  const lines: number[] = [];
  let line = 1;
  for (const row of records) {
    if (row.length > 1 || row[0] !== '') {
      rows.push(row);
      lines.push(line);
    }
    line += 1 + (row.join('').match(/\r\n|\r|\n/g)?.length ?? 0);
  }
  return { rows, lines, lineCount: line - 1 };
}

const DELIMITERS: RecordDelimiter[] = ['\n', '\r\n', '\r'];

/**
 * Well-formed CSV: cells plain or quoted (with doubled quotes, commas and line breaks inside), rows of any
 * width, blank lines.
 */
function wellFormed(next: () => number, delimiter: RecordDelimiter): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const rows: string[] = [];
  for (let r = Math.floor(next() * 6); r >= 0; r--) {
    const cells: string[] = [];
    for (let c = Math.floor(next() * 4); c >= 0; c--) {
      const plain = pick(['', 'a', 'ab c', 'é', '1.5', 'x|y', '-']);
      cells.push(next() < 0.6 ? plain : `"${plain}${pick(['', ',', '""', delimiter, 'q""q', ' '])}${plain}"`);
    }
    rows.push(next() < 0.1 ? '' : cells.join(','));
  }
  return rows.join(delimiter) + (next() < 0.5 ? delimiter : '');
}

/** Any text from CSV's own characters, mostly malformed. */
function anyText(next: () => number): string {
  const alphabet = ['a', 'b', ',', '"', '\n', '\r', ' ', 'é', '""'];
  let text = '';
  for (let n = Math.floor(next() * 14); n > 0; n--) text += alphabet[Math.floor(next() * alphabet.length)]!;
  return text;
}

describe('readPlainCsv', () => {
  it('reads what csv-parse reads from well-formed CSV, rows, lines and all, for every record delimiter', () => {
    const next = random(7);
    let read = 0;
    for (let n = 0; n < 3000; n++) {
      const delimiter = DELIMITERS[n % 3]!;
      const text = wellFormed(next, delimiter);
      const plain = readPlainCsv(text, delimiter, 1 << 20);
      if (plain) read++;
      expect(plain ?? csvParseReads(text, delimiter, 1 << 20), JSON.stringify(text)).toEqual(
        csvParseReads(text, delimiter, 1 << 20),
      );
    }
    // Stray line breaks inside quoted cells (an LF in a CRLF file) are left to csv-parse; the rest is read here.
    expect(read).toBeGreaterThan(2000);
  });

  it('reads nothing csv-parse would read otherwise or fail on: any mix of commas, quotes and line breaks', () => {
    const next = random(11);
    for (let n = 0; n < 5000; n++) {
      const delimiter = DELIMITERS[n % 3]!;
      const text = anyText(next);
      const plain = readPlainCsv(text, delimiter, 1 << 20);
      if (plain) expect(plain, JSON.stringify(text)).toEqual(csvParseReads(text, delimiter, 1 << 20));
    }
  });

  it('leaves to csv-parse the malformed cells it reports', () => {
    for (const text of ['a,b"c\n', 'a,"b"c\n', 'a,"b\n', 'a,"b" \n', 'a\rb\n']) {
      expect(readPlainCsv(text, '\n', 1 << 20), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('leaves to csv-parse a record that may be over the size limit, and reads one that cannot be', () => {
    expect(readPlainCsv('id,status\nA,approved\n', '\n', 30)?.rows).toEqual([
      ['id', 'status'],
      ['A', 'approved'],
    ]);
    expect(readPlainCsv('id,status\nA,approved\n', '\n', 20)).toBeUndefined();
  });

  it('counts the lines of multi-line cells and blank lines, as csv-parse does', () => {
    expect(readPlainCsv('a,"x\r\ny"\r\n\r\nb,c', '\r\n', 1 << 20)).toEqual({
      rows: [
        ['a', 'x\r\ny'],
        ['b', 'c'],
      ],
      lines: [1, 4],
      lineCount: 4,
    });
  });
});
