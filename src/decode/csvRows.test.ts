import { describe, expect, it } from 'vitest';
import { parseCsvRows } from './csvRows.js';
import { parseCsvPiece } from './csvPiece.js';
import { parseCsvStreamInline } from './csvStreamInline.js';

/** Everything the piece parsers give for these reads, as one batch. */
async function inPieces(chunks: string[], maxRecordSize: number, pieceBytes?: number) {
  const all: { rows: string[][]; lines: number[]; error?: unknown } = { rows: [], lines: [] };
  const input = (async function* () {
    yield* chunks.map((chunk) => Buffer.from(chunk));
  })();
  for await (const batch of parseCsvRows(input, maxRecordSize, undefined, pieceBytes)) {
    all.rows.push(...batch.rows);
    all.lines.push(...batch.lines);
    // The lines left after the error are parseCsvRows' own (tested below): the parsers give the rest.
    if (batch.error)
      all.error = { code: batch.error.code, message: batch.error.message, line: batch.error.line };
  }
  return all;
}

/** The same bytes read as one csv-parse stream (its streaming API, not the pieces' synchronous one). */
async function asOneStream(chunks: string[], maxRecordSize: number) {
  const all: { rows: string[][]; lines: number[]; error?: unknown } = { rows: [], lines: [] };
  const input = (async function* () {
    yield* chunks.map((chunk) => Buffer.from(chunk));
  })();
  for await (const part of parseCsvStreamInline(input, { maxRecordSize, first: true })) {
    all.rows.push(...part.rows);
    all.lines.push(...part.lines);
    if (part.error) all.error = part.error;
  }
  return all;
}

async function here(chunks: string[], maxRecordSize: number) {
  const { rows, lines, error } = parseCsvPiece(Buffer.from(chunks.join('')), { maxRecordSize, first: true });
  return { rows, lines, ...(error ? { error } : {}) };
}

const inputs: [string, string[], number][] = [
  [
    'BOM, CRLF, a multi-line cell and a blank line',
    ['\uFEFFid,status,status_reason\r\nA,approved,"two\r\nlines"\r\n\r\nB,declined,\r\n'],
    0,
  ],
  [
    'rows split across chunks, the BOM in a chunk of its own',
    ['\uFEFF', 'id,sta', 'tus\nA,appr', 'oved\n\n\nB,pending'],
    0,
  ],
  ['more and fewer cells than the header', ['a,b\n1,2,3\n4\n"x""y",z\n'], 0],
  ['lone CR line breaks inside and between rows', ['a,b\r1,"x\ry"\r2,3\r'], 0],
  ['an unbalanced quote after good rows', ['id,status\nA,approved\n\nB,"declined\nC,pending\n'], 0],
  ['a quote inside an unquoted cell', ['id,status\nA,app"roved\nB,x\n'], 0],
  ['a row over the record size limit', ['id,status\nA,approved\nB,', 'x'.repeat(100), '\nC,pending\n'], 40],
  ['an empty input', [''], 0],
  ['only blank lines', ['\n\r\n\n'], 0],
  [
    'an unclosed quote with no boundary for long after it',
    ['id,status\nA,approved\nB,"declined\n', 'C,pending\n'.repeat(40)],
    40,
  ],
];

describe('parseCsvRows', () => {
  it.each(inputs)(
    'gives the rows, lines and error the parse worker gives: %s',
    async (_, chunks, maxRecordSize) => {
      const expected = await inPieces(chunks, maxRecordSize);
      expect(await here(chunks, maxRecordSize)).toEqual(expected);
    },
  );
  it.each(inputs)(
    'gives them cut into many small pieces parsed side by side: %s',
    async (_, chunks, maxRecordSize) => {
      const expected = await here(chunks, maxRecordSize);
      expect(await inPieces(chunks, maxRecordSize, 8)).toEqual(expected);
    },
  );
  it.each(inputs)(
    'gives what one csv-parse stream over the whole input gives: %s',
    async (_, chunks, maxRecordSize) => {
      expect(await here(chunks, maxRecordSize)).toEqual(await asOneStream(chunks, maxRecordSize));
    },
  );
  it.each([
    ['a stray quote on line 3 of 6', ['id,s\nA,x\nB,y"z\nC,x\nD,x\nE,x\n'], 3, 3],
    ['a last line with no newline, in small pieces', ['id,s\nA,x\nB,"y\nC,x\n', 'D,x\nE,x'], 3, 3],
    ['a quote never closed, on the last line', ['id,s\nA,x\nB,"y\n'], 3, 0],
  ])('counts the lines of the input left after the error: %s', async (_, chunks, line, linesAfter) => {
    const input = (async function* () {
      yield* chunks.map((chunk) => Buffer.from(chunk));
    })();
    const errors = [];
    for await (const batch of parseCsvRows(input, 0, undefined, 8)) if (batch.error) errors.push(batch.error);
    expect(errors).toEqual([expect.objectContaining({ line, linesAfter })]);
  });
  it('locates rows and the error on their starting lines', async () => {
    expect(await here(['id,status\nA,"multi\nline"\n\nB,"declined\nC,pending\n'], 0)).toEqual({
      rows: [
        ['id', 'status'],
        ['A', 'multi\nline'],
      ],
      lines: [1, 2],
      error: { code: 'CSV_QUOTE_NOT_CLOSED', message: expect.any(String), line: 5 },
    });
  });
});
