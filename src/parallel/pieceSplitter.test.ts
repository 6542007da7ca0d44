import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsvPiece, type PieceRows } from '../decode/csvPiece.js';
import { PieceSplitter, findRecordEnd } from './pieceSplitter.js';

/** The whole input parsed as one piece: what csv-parse gives reading it as a stream. */
const whole = (input: Buffer) => parseCsvPiece(input, { maxRecordSize: 0, first: true });

const rowsOnly = ({ rows, lines, error }: PieceRows) => ({ rows, lines, ...(error ? { error } : {}) });

/**
 * The input's header parsed alone, the rest cut by the splitter (reads of `reads` bytes, pieces of `target`)
 * and each piece parsed alone, lines shifted down.
 */
function inPieces(input: Buffer, reads: number, target: number): Omit<PieceRows, 'lineCount'> {
  const all: Omit<PieceRows, 'lineCount'> = { rows: [], lines: [] };
  let base = 1;
  const take = (piece: PieceRows) => {
    all.rows.push(...piece.rows);
    all.lines.push(...piece.lines.map((line) => line + base - 1));
    if (piece.error) all.error = { ...piece.error, line: piece.error.line + base - 1 };
    base += piece.lineCount;
    return piece.error === undefined;
  };
  const head = findRecordEnd(input, 0, undefined, true);
  if (!head) return rowsOnly(whole(input));
  if (!take(parseCsvPiece(input.subarray(0, head.end), { maxRecordSize: 0, first: true }))) return all;
  const splitter = new PieceSplitter(head.delimiter, target, 0);
  const pieces: Buffer[] = [];
  for (let at = head.end; at < input.length; at += reads)
    pieces.push(...splitter.push(input.subarray(at, Math.min(at + reads, input.length))));
  pieces.push(splitter.end());
  for (const piece of pieces)
    if (!take(parseCsvPiece(piece, { maxRecordSize: 0, delimiter: head.delimiter }))) break;
  return all;
}

describe('PieceSplitter', () => {
  it('cuts anywhere into pieces that parse alone to the rows, lines and error of the whole input', () => {
    const token = fc.constantFrom('a', 'bc', ',', '"', '""', '\n', '\r', '\r\n', ' ', 'é', '"x,\ny"');
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 24 }),
        (tokens, reads, target) => {
          const input = Buffer.from(tokens.join(''));
          expect(inPieces(input, reads, target)).toEqual(rowsOnly(whole(input)));
        },
      ),
    );
  });

  it('cuts a long read into pieces of about the target, not one piece of the whole read', () => {
    const splitter = new PieceSplitter('\n', 30, 0);
    const read = Buffer.from('abcdefghi\n'.repeat(20));
    const pieces = splitter.push(read);
    expect(pieces.map((piece) => piece.length)).toEqual([30, 30, 30, 30, 30, 30]);
    expect(Buffer.concat([...pieces, splitter.end()]).equals(read)).toBe(true);
  });

  it('cuts only after a delimiter outside quotes', () => {
    const splitter = new PieceSplitter('\n', 12, 0);
    expect(splitter.push(Buffer.from('a,"b\nc"\nd,e\n"f\n')).map(String)).toEqual(['a,"b\nc"\nd,e\n']);
    expect(String(splitter.end())).toBe('"f\n');
  });

  it('cuts a CRLF file only after CR LF, a bare LF being part of a cell there', () => {
    const splitter = new PieceSplitter('\r\n', 4, 0);
    expect(splitter.push(Buffer.from('a,b\r\nc\nd,e\n')).map(String)).toEqual(['a,b\r\n']);
  });

  it('finds no boundary in bytes whose only line break opens them', () => {
    expect(new PieceSplitter('\r\n', 1, 0).push(Buffer.from('\nx'))).toEqual([]);
  });

  it(
    'cuts no piece after the limit is passed in a long read: everything after the last piece waits ' +
      'for the stream',
    () => {
      const splitter = new PieceSplitter('\n', 4, 16);
      const read = Buffer.from('a\n"an unclosed quote, line breaks within\n"\nb\nc\n');
      const pieces = splitter.push(read);
      expect(splitter.overflowed).toBe(true);
      expect(Buffer.concat([...pieces, splitter.end()]).equals(read)).toBe(true);
      expect(pieces.map(String)).toEqual(['a\n']);
    },
  );

  it('says when a record has no boundary past the limit', () => {
    const splitter = new PieceSplitter('\n', 4, 16);
    expect(splitter.push(Buffer.from('"an unclosed quote\nand more'))).toEqual([]);
    expect(splitter.overflowed).toBe(true);
  });
});

describe('findRecordEnd', () => {
  it('finds the delimiter as csv-parse does: the first line break outside quotes', () => {
    expect(findRecordEnd(Buffer.from('"a\rb",c\r\nd'), 0, undefined, true)).toEqual({
      end: 9,
      delimiter: '\r\n',
    });
    expect(findRecordEnd(Buffer.from('a\rb\nc'), 0, undefined, true)).toEqual({ end: 2, delimiter: '\r' });
    expect(findRecordEnd(Buffer.from('a,b\r'), 0, undefined, false)).toBeUndefined();
  });
});
