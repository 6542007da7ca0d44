import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resources } from '../../resources/registry.js';
import type { Facts } from '../../resources/resource.js';
import { RunIndexFile } from './runIndexFile.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

describe('RunIndexFile', () => {
  it(
    "yields each order's records together, in reading order, with the run's claimants of delivery " +
      'ids, and is deleted on close',
    () => {
      const dir = tempDir('collect-run-');
      const index = RunIndexFile.create(dir);
      const at = (file: string, n: number) => ({ file, index: n, line: n + 2 });
      index.add({
        resource: resources.status,
        hash: 's1',
        schemaValid: true,
        location: at('s.csv', 0),
        facts: { kind: 'status', orderId: 'B', key: 'B', status: 'approved' } as Facts,
      });
      index.add({
        resource: resources.order,
        hash: 'o1',
        schemaValid: true,
        location: at('o.csv', 0),
        facts: {
          kind: 'order',
          orderId: 'A',
          key: 'A',
          evaluate: false,
          payments: [],
          claims: ['D1'],
        } as Facts,
        remembered: true,
      });
      index.add({
        resource: resources.delivery,
        hash: 'd1',
        schemaValid: false,
        location: at('d.csv', 0),
        facts: { kind: 'delivery', orderId: 'B', key: 'D1', deliveryId: 'D1' } as Facts,
        issues: [{ severity: 'error', code: 'required', path: 'id', message: 'missing' }],
      });
      index.add({
        resource: resources.status,
        hash: 's2',
        schemaValid: true,
        location: at('s.csv', 1),
        facts: { kind: 'status', orderId: 'A', key: 'A', status: 'pending' } as Facts,
      });
      // Orders come bucket by bucket (their ids' hashes), each with its records in reading order.
      const timelines = [...index.timelines()].sort((a, b) => a.orderId.localeCompare(b.orderId));
      expect(timelines.map((t) => [t.orderId, t.events.map((e) => e.hash)])).toEqual([
        ['A', ['o1', 's2']],
        ['B', ['s1', 'd1']],
      ]);
      // A creation remembered as it was read says so; the other records do not.
      expect(timelines.flatMap((t) => t.events.map((e) => e.remembered ?? false))).toEqual([
        true,
        false,
        false,
        false,
      ]);
      expect(timelines[1]!.events[1]).toMatchObject({
        runOwners: ['A'],
        schemaValid: false,
        location: { file: 'd.csv', index: 0, line: 2 },
        resource: resources.delivery,
        issues: [{ code: 'required' }],
      });
      const files = readdirSync(dir);
      expect(files.some((name) => name.startsWith('run-'))).toBe(true);
      index.close();
      for (const file of files) expect(existsSync(join(dir, file))).toBe(false);
    },
  );
});
