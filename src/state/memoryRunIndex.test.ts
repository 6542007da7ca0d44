import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IndexedRecord, RunIndex } from './runIndex.js';
import { MemoryRunIndex, SpillingRunIndex } from './memoryRunIndex.js';

const records: IndexedRecord[] = [
  { endpoint: 'status', hash: 's1', schemaValid: true, location: { file: 's.csv', index: 0, line: 2 }, facts: { kind: 'status', orderId: 'B', status: 'approved' }, body: '{"id":"B"}' },
  { endpoint: 'order', hash: 'o1', schemaValid: true, location: { file: 'o.csv', index: 0, line: 2 }, facts: { kind: 'order', orderId: 'A', evaluate: false, payments: [], deliveryIds: ['D1'] } },
  { endpoint: 'delivery', hash: 'd1', schemaValid: false, location: { file: 'd.csv', index: 0, line: 2 }, facts: { kind: 'delivery', orderId: 'B', deliveryId: 'D1' } },
  { endpoint: 'status', hash: 's2', schemaValid: true, location: { file: 's.csv', index: 1, line: 3 }, facts: { kind: 'status', orderId: 'A', status: 'pending' }, raw: { kind: 'text', text: '{}' } },
];

function grouped(index: RunIndex) {
  for (const record of records) index.add(record);
  index.addUnkeyed({ endpoint: 'status', location: { file: 's.csv', index: 2, line: 4 }, raw: { kind: 'csv', header: ['id'], cells: [''] } });
  const timelines = [...index.timelines()].map((t) => [t.orderId, t.events.map((e) => [e.hash, e.runOwners, e.body ?? null, e.raw ?? null])]);
  return { timelines: timelines.sort(), unkeyed: [...index.unkeyed()], creations: index.hasCreations, kinds: [...index.kinds].sort() };
}

describe('run indexes in memory and spilling to disk', () => {
  it('group the same records the same way', () => {
    const memory = grouped(new MemoryRunIndex());
    expect(memory.timelines).toEqual([
      ['A', [['o1', [], null, null], ['s2', [], null, { kind: 'text', text: '{}' }]]],
      ['B', [['s1', [], '{"id":"B"}', null], ['d1', ['A'], null, null]]],
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'collect-spill-'));
    const spilling = new SpillingRunIndex(dir, 2);
    expect(grouped(spilling)).toEqual(memory);
    expect(readdirSync(dir).some((name) => name.startsWith('run-'))).toBe(true);
    spilling.close();
    expect(readdirSync(dir)).toEqual([]);
  });
});
