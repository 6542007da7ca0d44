import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { RunIndex, type IndexedRecord } from './runIndex.js';

const records: IndexedRecord[] = [
  { resource: resources.status, hash: 's1', schemaValid: true, location: { file: 's.csv', index: 0, line: 2 }, facts: { kind: 'status', orderId: 'B', key: 'B', status: 'approved' } as Facts, body: '{"id":"B"}' },
  { resource: resources.order, hash: 'o1', schemaValid: true, location: { file: 'o.csv', index: 0, line: 2 }, facts: { kind: 'order', orderId: 'A', key: 'A', evaluate: false, payments: [], claims: ['D1'] } as Facts },
  { resource: resources.delivery, hash: 'd1', schemaValid: false, location: { file: 'd.csv', index: 0, line: 2 }, facts: { kind: 'delivery', orderId: 'B', key: 'D1', deliveryId: 'D1' } as Facts },
  { resource: resources.status, hash: 's2', schemaValid: true, location: { file: 's.csv', index: 1, line: 3 }, facts: { kind: 'status', orderId: 'A', key: 'A', status: 'pending' } as Facts, raw: { kind: 'text', text: '{}' } },
];

function grouped(index: RunIndex) {
  for (const record of records) index.add(record);
  index.addUnkeyed({ resource: resources.status, location: { file: 's.csv', index: 2, line: 4 }, raw: { kind: 'csv', header: ['id'], cells: [''] }, issues: [] });
  const timelines = [...index.timelines()].map((t) => [t.orderId, t.events.map((e) => [e.hash, e.runOwners, e.body ?? null, e.raw ?? null])]);
  return { timelines: timelines.sort(), unkeyed: [...index.unkeyed()], creations: index.hasCreations, endpoints: [...index.resources].map((r) => r.name).sort() };
}

describe('RunIndex', () => {
  it('groups the same records the same way in memory and once spilled to disk, and deletes its file on close', () => {
    const memory = grouped(new RunIndex(tmpdir()));
    expect(memory.timelines).toEqual([
      ['A', [['o1', [], null, null], ['s2', [], null, { kind: 'text', text: '{}' }]]],
      ['B', [['s1', [], '{"id":"B"}', null], ['d1', ['A'], null, null]]],
    ]);
    expect(memory.endpoints).toEqual(['delivery', 'order', 'status']);
    const dir = mkdtempSync(join(tmpdir(), 'collect-spill-'));
    const spilling = new RunIndex(dir, 2);
    expect(grouped(spilling)).toEqual(memory);
    expect(readdirSync(dir).some((name) => name.startsWith('run-'))).toBe(true);
    spilling.close();
    expect(readdirSync(dir)).toEqual([]);
  });
});
