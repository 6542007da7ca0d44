import { describe, expect, it } from 'vitest';
import { readJsonRecords } from './jsonRecords.js';

async function read(...chunks: string[]) {
  const out = [];
  for await (const record of readJsonRecords(
    (async function* () {
      yield* chunks;
    })(),
    'x.json',
  )) {
    out.push({
      index: record.index,
      line: record.line,
      value: record.value,
      codes: record.issues.map((i) => i.code),
    });
  }
  return out;
}

describe('readJsonRecords', () => {
  it('reads an array of objects with the line each starts on', async () => {
    expect(await read('[\n  {"id": "A"},\n  {"id": "B",\n   "x": "}]"}\n]\n')).toEqual([
      { index: 0, line: 2, value: { id: 'A' }, codes: [] },
      { index: 1, line: 3, value: { id: 'B', x: '}]' }, codes: [] },
    ]);
  });
  it('reads a single object, and an array split across chunks anywhere', async () => {
    expect(await read('{"id": "A"}')).toEqual([{ index: 0, line: 1, value: { id: 'A' }, codes: [] }]);
    const text = '[{"id":"A","s":"a\\"b"},\n{"id":"B"}]';
    for (let cut = 1; cut < text.length; cut++) {
      const records = await read(text.slice(0, cut), text.slice(cut));
      expect(records.map((r) => r.value)).toEqual([{ id: 'A', s: 'a"b' }, { id: 'B' }]);
    }
  });
  it('keeps scalar elements as records, so validation can say they are not objects', async () => {
    expect((await read('[1, "x", {"id":"A"}]')).map((r) => r.value)).toEqual([1, 'x', { id: 'A' }]);
  });
  it('locates a broken record and goes on with the next', async () => {
    const records = await read('[\n{"id": "A",},\n{"id": "B"}\n]');
    expect(records.map((r) => [r.line, r.codes])).toEqual([
      [2, ['invalid-json']],
      [3, []],
    ]);
  });
  it('locates a truncated file at the unfinished record', async () => {
    const records = await read('[\n{"id": "A"},\n{"id": "B",\n "total');
    expect(records.map((r) => [r.index, r.line, r.codes])).toEqual([
      [0, 2, []],
      [1, 3, ['invalid-json']],
    ]);
    expect((await read('[{"id": "A"}')).map((r) => r.codes)).toEqual([[], ['invalid-json']]);
  });
  it('rejects a file that is not an object or array, and text after the end', async () => {
    expect((await read('hello')).map((r) => r.codes)).toEqual([['invalid-json']]);
    expect((await read('[{"id":"A"}] x')).map((r) => r.codes)).toEqual([[], ['invalid-json']]);
  });
  it('reads nothing from an empty file or an empty array', async () => {
    expect(await read('')).toEqual([]);
    expect(await read(' [ ] ')).toEqual([]);
  });
});
