import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteRunIndex } from './runIndex.js';

describe('RunIndex', () => {
  it("yields each order's records together, in reading order, with the run's owners of delivery ids", () => {
    const dir = mkdtempSync(join(tmpdir(), 'collect-run-'));
    const index = SqliteRunIndex.create(dir);
    const at = (file: string, n: number) => ({ file, index: n, line: n + 2 });
    index.add({ endpoint: 'status', hash: 's1', schemaValid: true, location: at('s.csv', 0), facts: { kind: 'status', orderId: 'B', status: 'approved' } });
    index.add({ endpoint: 'order', hash: 'o1', schemaValid: true, location: at('o.csv', 0), facts: { kind: 'order', orderId: 'A', evaluate: false, payments: [], deliveryIds: ['D1'] } });
    index.add({ endpoint: 'delivery', hash: 'd1', schemaValid: false, location: at('d.csv', 0), facts: { kind: 'delivery', orderId: 'B', deliveryId: 'D1' } });
    index.add({ endpoint: 'status', hash: 's2', schemaValid: true, location: at('s.csv', 1), facts: { kind: 'status', orderId: 'A', status: 'pending' } });
    expect(index.hasCreations).toBe(true);
    const timelines = [...index.timelines()];
    expect(timelines.map((t) => [t.orderId, t.events.map((e) => e.hash)])).toEqual([['A', ['o1', 's2']], ['B', ['s1', 'd1']]]);
    expect(timelines[1]!.events[1]).toMatchObject({ runOwners: ['A'], schemaValid: false, location: { file: 'd.csv', index: 0, line: 2 } });
    const file = readdirSync(dir).find((name) => name.startsWith('run-'))!;
    index.close();
    expect(existsSync(join(dir, file))).toBe(false);
  });
});
