import { describe, expect, it } from 'vitest';
import { readNdjsonRecords } from './ndjsonRecords.js';

async function read(text: string) {
  const out = [];
  for await (const record of readNdjsonRecords(
    (async function* () {
      yield text;
    })(),
    'x.ndjson',
  )) {
    out.push([record.index, record.line, record.value ?? null, record.issues.map((i) => i.code)]);
  }
  return out;
}

describe('readNdjsonRecords', () => {
  it('reads one object per line, skipping blank lines, counting CRLF lines once', async () => {
    expect(await read('\uFEFF{"id":"A"}\r\n\r\n{"id":"B"}\r\n')).toEqual([
      [0, 1, { id: 'A' }, []],
      [1, 3, { id: 'B' }, []],
    ]);
  });
  it('locates a broken line and goes on', async () => {
    expect(await read('{"id":"A"}\n{"id":\n{"id":"C"}')).toEqual([
      [0, 1, { id: 'A' }, []],
      [1, 2, null, ['invalid-json']],
      [2, 3, { id: 'C' }, []],
    ]);
  });
});
