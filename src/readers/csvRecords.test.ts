import { describe, expect, it } from 'vitest';
import { statusSchema } from '../resources/status/index.js';
import { INLINE_PARSE_BYTES, readCsvRecords } from './csvRecords.js';

async function readAll(...chunks: string[]) {
  const out = [];
  const input = (async function* () { yield* chunks.map((c) => Buffer.from(c)); })();
  for await (const record of readCsvRecords(input, 'x.csv', { schema: statusSchema })) {
    out.push([record.index, record.line, record.value ?? null, record.issues.map((i) => i.code)]);
  }
  return out;
}

describe('readCsvRecords', () => {
  it('gives each row its starting line; a quoted multi-line cell does not shift later rows', async () => {
    expect(await readAll('\uFEFFid,status,status_reason\r\nA,approved,"two\r\nlines"\r\n\r\nB,declined,\r\n')).toEqual([
      [0, 2, { id: 'A', status: 'approved', status_reason: 'two\r\nlines' }, []],
      [1, 5, { id: 'B', status: 'declined' }, []],
    ]);
  });
  it('reads rows split across chunks', async () => {
    expect((await readAll('id,sta', 'tus\nA,appr', 'oved\nB,pending\n')).map((r) => r[2])).toEqual([{ id: 'A', status: 'approved' }, { id: 'B', status: 'pending' }]);
  });
  it('locates an unbalanced quote and keeps the rows before it', async () => {
    expect(await readAll('id,status\nA,approved\n\nB,"declined\nC,pending\n')).toEqual([
      [0, 2, { id: 'A', status: 'approved' }, []],
      [1, 4, null, ['invalid-csv']],
    ]);
  });
  it('reports header problems once, as a file issue', async () => {
    expect(await readAll('id,id,status\nA,B,approved\n')).toEqual([
      [null, 1, null, ['duplicate-header']],
      [0, 2, { id: 'A', status: 'approved' }, []],
    ]);
  });
  it('warns about an unknown column once, on the header line, not on every row', async () => {
    expect(await readAll('id,status,statuss\nA,approved,x\nB,pending,y\n')).toEqual([
      [null, 1, null, ['unknown-field']],
      [0, 2, { id: 'A', status: 'approved', statuss: 'x' }, []],
      [1, 3, { id: 'B', status: 'pending', statuss: 'y' }, []],
    ]);
  });
  it('reads an input too large to parse on this thread through the parse worker, lines and errors included', async () => {
    const rows = Array.from({ length: 2500 }, (_, n) => `R${n},approved,${'x'.repeat(60)}\n`);
    const input = `id,status,status_reason\n${rows.join('')}R2500,"declined\n`;
    expect(input.length).toBeGreaterThan(INLINE_PARSE_BYTES);
    const read = await readAll(input.slice(0, 70000), input.slice(70000));
    expect(read).toHaveLength(2501);
    expect(read[0]).toEqual([0, 2, { id: 'R0', status: 'approved', status_reason: 'x'.repeat(60) }, []]);
    expect(read[2499]).toEqual([2499, 2501, { id: 'R2499', status: 'approved', status_reason: 'x'.repeat(60) }, []]);
    expect(read[2500]).toEqual([2500, 2502, null, ['invalid-csv']]);
  });
});
