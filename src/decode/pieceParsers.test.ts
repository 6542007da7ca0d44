import { describe, expect, it } from 'vitest';
import { createCsvTask } from './csvPieceTask.js';
import { PieceParsers } from './pieceParsers.js';

describe('PieceParsers', () => {
  it('answers every piece in the order it was added, whichever worker parsed it', async () => {
    const options = { maxRecordSize: 0, delimiter: '\n' as const };
    const pieces = Array.from({ length: 40 }, (_, n) =>
      Buffer.from(Array.from({ length: 1 + (n % 7) * 50 }, (_, row) => `${n},${row},"a\nb"\n`).join('')),
    );
    const parsers = new PieceParsers(2, options);
    const answers = [];
    try {
      for (const piece of pieces.slice(0, 4)) parsers.add(Buffer.from(piece));
      for (let n = 4; n < pieces.length + 4; n++) {
        answers.push(await parsers.next());
        if (n < pieces.length) parsers.add(Buffer.from(pieces[n]!));
      }
    } finally {
      await parsers.close();
    }
    const here = await createCsvTask(options);
    expect(answers).toEqual(pieces.map((piece) => here(piece)));
    expect(parsers.inFlight).toBe(0);
  });

  it('parses on this thread, starting no worker, a last piece that is the whole of a small input', async () => {
    const options = { maxRecordSize: 0, delimiter: '\n' as const };
    const piece = Buffer.from('A,1\nB,2\n');
    const parsers = new PieceParsers(2, options);
    parsers.add(piece, true);
    expect(await parsers.next()).toEqual((await createCsvTask(options))(piece));
    expect(parsers.started).toBe(0);
    await parsers.close();
  });

  it('gives a last piece to the workers once they are started', async () => {
    const options = { maxRecordSize: 0, delimiter: '\n' as const };
    const parsers = new PieceParsers(1, options);
    parsers.add(Buffer.from('A,1\n'));
    parsers.add(Buffer.from('B,2\n'), true);
    expect((await parsers.next()).rows).toEqual([['A', '1']]);
    expect((await parsers.next()).rows).toEqual([['B', '2']]);
    expect(parsers.started).toBe(1);
    await parsers.close();
  });
});
