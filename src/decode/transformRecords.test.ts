import { afterEach, describe, expect, it } from 'vitest';
import { BuiltinSnapshot } from './builtinGuard.js';
import type { SourceRecord } from './sourceRecord.js';
import { transformRecords, type RecordTransform } from './transformRecords.js';

async function run(
  records: SourceRecord[],
  transform: RecordTransform,
  timeoutMs = 1000,
): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  const hook = { module: 'fix.mjs', run: transform, timeoutMs, builtins: BuiltinSnapshot.take() };
  for await (const record of transformRecords(
    (async function* () {
      yield* records;
    })(),
    hook,
  ))
    out.push(record);
  return out;
}

const record = (value: unknown, line = 2): SourceRecord => ({
  file: 'o.csv',
  index: line - 2,
  line,
  value,
  issues: [],
  fieldsChecked: true,
});
const messages = (out: SourceRecord[]) =>
  out.map((r) => [r.line, r.issues.map((i) => `${i.code}: ${i.message}`)]);

afterEach(() => {
  delete (Object.prototype as Record<string, unknown>).polluted;
});

describe('transformRecords', () => {
  it('replaces, drops and splits records, keeping their location', async () => {
    const out = await run(
      [record({ id: 'A' }), record({ id: 'skip' }, 3), record({ id: 'B' }, 4)],
      (value, location) =>
        value.id === 'skip'
          ? null
          : value.id === 'B'
            ? [value, { ...value, id: 'B2' }]
            : { ...value, note: location.line },
    );
    expect(out.map((r) => [r.line, r.value])).toEqual([
      [2, { id: 'A', note: 2 }],
      [4, { id: 'B' }],
      [4, { id: 'B2' }],
    ]);
    expect(out[0]!.fieldsChecked).toBeUndefined();
  });
  it('turns a throw or a result that is not a record into an error of that record, naming the module', async () => {
    const out = await run([record({ id: 'A' }), record({ id: 'B' }, 3)], (value) => {
      if (value.id === 'A') throw new Error('no total');
      return 'oops';
    });
    expect(messages(out)).toEqual([
      [2, ['transform-failed: --transform fix.mjs threw: no total']],
      [3, ['transform-failed: --transform fix.mjs returned something that is not a record']],
    ]);
  });
  it('gives a promise that never settles its time limit, then goes on with the next record', async () => {
    const out = await run(
      [record({ id: 'A' }), record({ id: 'B' }, 3)],
      (value) => (value.id === 'A' ? new Promise(() => {}) : Promise.resolve(value)),
      50,
    );
    expect(messages(out)).toEqual([
      [2, ['transform-failed: --transform fix.mjs did not settle within 50 ms for this record']],
      [3, []],
    ]);
    expect(out[1]!.value).toEqual({ id: 'B' });
  });
  it('stops waiting for a pending call as soon as the run is interrupted, and ends the records', async () => {
    const aborted = new AbortController();
    const hook = {
      module: 'fix.mjs',
      run: () => new Promise(() => {}),
      timeoutMs: 600_000,
      builtins: BuiltinSnapshot.take(),
    };
    const records = transformRecords(
      (async function* () {
        yield* [record({ id: 'A' }), record({ id: 'B' }, 3)];
      })(),
      hook,
      aborted.signal,
    );
    setTimeout(() => aborted.abort(), 20);
    const out: SourceRecord[] = [];
    for await (const one of records) out.push(one);
    expect(out).toEqual([]);
  });
  it(
    'makes a cyclic object, a BigInt or a hostile Proxy an error of its record, and hands on plain ' +
      'JSON data',
    async () => {
      const revoked = Proxy.revocable({}, {});
      revoked.revoke();
      const out = await run(
        [record({ id: 'A' }), record({ id: 'B' }, 3), record({ id: 'C' }, 4), record({ id: 'D' }, 5)],
        (value) => {
          if (value.id === 'A') return Object.assign(value, { self: value });
          if (value.id === 'B') return { ...value, total_paid_value: 10n };
          if (value.id === 'C') return revoked.proxy;
          return { ...value, at: new Date('2024-03-01T10:00:00Z'), skip: undefined };
        },
      );
      expect(out.map((r) => [r.line, r.issues[0]?.message.replace(/: [^:]*$/, '')])).toEqual([
        [2, '--transform fix.mjs returned something that is not JSON data'],
        [3, '--transform fix.mjs returned something that is not JSON data'],
        [4, '--transform fix.mjs threw'], // reading a revoked Proxy throws
        [5, undefined],
      ]);
      expect(out[3]!.value).toEqual({ id: 'D', at: '2024-03-01T10:00:00.000Z' });
    },
  );
  it('stops the run (exit 2) when the transform changes a built-in object, and puts it back', async () => {
    const failing = run([record({ id: 'A' }), record({ id: 'B' }, 3)], (value) => {
      if (value.id === 'B') (Object.prototype as Record<string, unknown>).polluted = 'yes';
      return value;
    });
    await expect(failing).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining(
        "--transform fix.mjs changed JavaScript's built-in objects (Object.prototype.polluted was added) on o.csv:3",
      ),
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
