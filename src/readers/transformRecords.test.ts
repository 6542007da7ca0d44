import { describe, expect, it } from 'vitest';
import type { SourceRecord } from './sourceRecord.js';
import { transformRecords, type RecordTransform } from './transformRecords.js';

async function run(records: SourceRecord[], transform: RecordTransform): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const record of transformRecords((async function* () { yield* records; })(), transform)) out.push(record);
  return out;
}

const record = (value: unknown, line = 2): SourceRecord => ({ file: 'o.csv', index: line - 2, line, value, issues: [], fieldsChecked: true });

describe('transformRecords', () => {
  it('replaces, drops and splits records, keeping their location', async () => {
    const out = await run([record({ id: 'A' }), record({ id: 'skip' }, 3), record({ id: 'B' }, 4)], (value, location) =>
      value.id === 'skip' ? null : value.id === 'B' ? [value, { ...value, id: 'B2' }] : { ...value, note: location.line });
    expect(out.map((r) => [r.line, r.value])).toEqual([[2, { id: 'A', note: 2 }], [4, { id: 'B' }], [4, { id: 'B2' }]]);
    expect(out[0]!.fieldsChecked).toBeUndefined();
  });
  it('turns a throw or a result that is not a record into an error of that record', async () => {
    const out = await run([record({ id: 'A' }), record({ id: 'B' }, 3)], (value) => {
      if (value.id === 'A') throw new Error('no total');
      return 'oops';
    });
    expect(out.map((r) => [r.line, r.issues.map((i) => `${i.code}: ${i.message}`)])).toEqual([
      [2, ['transform-failed: --transform threw: no total']],
      [3, ['transform-failed: --transform returned something that is not a record']],
    ]);
  });
});
