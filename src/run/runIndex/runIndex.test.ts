import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { resources } from '../../resources/registry.js';
import type { Facts } from '../../resources/resource.js';
import { RunIndex, type IndexedRecord } from './runIndex.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

const records: IndexedRecord[] = [
  {
    resource: resources.status,
    hash: 's1',
    schemaValid: true,
    location: { file: 's.csv', index: 0, line: 2 },
    facts: { kind: 'status', orderId: 'B', key: 'B', status: 'approved' } as Facts,
    body: '{"id":"B"}',
  },
  {
    resource: resources.order,
    hash: 'o1',
    schemaValid: true,
    location: { file: 'o.csv', index: 0, line: 2 },
    facts: { kind: 'order', orderId: 'A', key: 'A', evaluate: false, payments: [], claims: ['D1'] } as Facts,
  },
  {
    resource: resources.delivery,
    hash: 'd1',
    schemaValid: false,
    location: { file: 'd.csv', index: 0, line: 2 },
    facts: { kind: 'delivery', orderId: 'B', key: 'D1', deliveryId: 'D1' } as Facts,
  },
  {
    resource: resources.status,
    hash: 's2',
    schemaValid: true,
    location: { file: 's.csv', index: 1, line: 3 },
    facts: { kind: 'status', orderId: 'A', key: 'A', status: 'pending' } as Facts,
    raw: { kind: 'text', text: '{}' },
  },
];

function grouped(index: RunIndex) {
  for (const record of records) index.add(record);
  index.addUnkeyed({
    resource: resources.status,
    location: { file: 's.csv', index: 2, line: 4 },
    raw: { kind: 'csv', header: ['id'], cells: [''] },
    issues: [],
  });
  const timelines = [...index.timelines()].map((t) => [
    t.orderId,
    t.events.map((e) => [e.hash, e.runOwners, e.body ?? null, e.raw ?? null]),
  ]);
  return {
    timelines: timelines.sort(),
    unkeyed: [...index.unkeyed()],
    creations: index.hasCreations,
    endpoints: [...index.resources].map((r) => r.name).sort(),
  };
}

describe('RunIndex', () => {
  it('groups the same records the same way in memory and once spilled to disk, and deletes its file on close', () => {
    const memory = grouped(new RunIndex(tmpdir()));
    expect(memory.timelines).toEqual([
      [
        'A',
        [
          ['o1', [], null, null],
          ['s2', [], null, { kind: 'text', text: '{}' }],
        ],
      ],
      [
        'B',
        [
          ['s1', [], '{"id":"B"}', null],
          ['d1', ['A'], null, null],
        ],
      ],
    ]);
    expect(memory.endpoints).toEqual(['delivery', 'order', 'status']);
    const dir = tempDir('collect-spill-');
    const spilling = new RunIndex(dir, 2);
    expect(grouped(spilling)).toEqual(memory);
    expect(readdirSync(dir).some((name) => name.startsWith('run-'))).toBe(true);
    spilling.close();
    expect(readdirSync(dir)).toEqual([]);
  });
  it(
    'gives a large spilled run the same timelines as memory: records beyond a chunk, claims looked ' +
      'up, records without keys in reading order',
    () => {
      const many: IndexedRecord[] = [];
      for (let i = 0; i < 3000; i++) {
        const id = `ORD-${i % 700}`;
        many.push(
          i < 700
            ? {
                resource: resources.order,
                hash: `o${i}`,
                schemaValid: true,
                location: { file: 'o.csv', index: i, line: i + 2 },
                facts: {
                  kind: 'order',
                  orderId: id,
                  key: id,
                  evaluate: false,
                  payments: [],
                  claims: [`D${i}`],
                } as Facts,
              }
            : i % 2 === 0
              ? {
                  resource: resources.status,
                  hash: `s${i}`,
                  schemaValid: i % 9 !== 0,
                  location: { file: 's.csv', index: i, line: i + 2 },
                  facts: { kind: 'status', orderId: id, key: id, status: 'approved' } as Facts,
                  issues: [{ severity: 'error', code: 'x', path: 'status', message: `m${i}` }],
                  // Some bodies large enough that their buckets are written out, chunk after chunk.
                  ...(i % 50 === 0 ? { body: `{"id":"${id}","note":"${'x'.repeat(40_000)}"}` } : {}),
                }
              : {
                  resource: resources.delivery,
                  hash: `d${i}`,
                  schemaValid: true,
                  location: { file: 'd.csv', index: i, line: i + 2 },
                  facts: {
                    kind: 'delivery',
                    orderId: id,
                    key: `D${i % 900}`,
                    deliveryId: `D${i % 900}`,
                  } as Facts,
                  raw: { kind: 'csv', header: ['id'], cells: [`D${i}`] },
                },
        );
      }
      const read = (index: RunIndex) => {
        for (const [n, record] of many.entries()) {
          index.add(record);
          if (n % 100 === 0)
            index.addUnkeyed({
              resource: resources.status,
              location: { file: 's.csv', index: n, line: null },
              raw: { kind: 'text', text: `{"n":${n}}` },
              issues: [],
            });
        }
        const timelines = [...index.timelines()].map(
          (t) => [t.orderId, t.events.map(({ seq: _seq, ...event }) => event)] as const,
        );
        const result = {
          timelines: timelines.sort((a, b) => a[0].localeCompare(b[0])),
          unkeyed: [...index.unkeyed()],
        };
        index.close();
        return result;
      };
      const memory = read(new RunIndex(tmpdir()));
      expect(memory.timelines).toHaveLength(700);
      expect(
        memory.timelines.flatMap(([, events]) => events.flatMap((e) => e.runOwners)).length,
      ).toBeGreaterThan(0);
      expect(read(new RunIndex(tempDir('collect-spill-'), 50))).toEqual(memory);
    },
  );
});
