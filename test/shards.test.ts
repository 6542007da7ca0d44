import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shardOf } from '../src/run/shard.js';
import { nd, orderRecord } from './helpers/history.js';
import { startServer } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'k-12345678' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('--shard I/N', () => {
  it(
    'delivers one history in N runs on one state: every record once, each order in its shard, ' +
      'creations before updates',
    async () => {
      const server = await startServer(() => ({ status: 201, body: { message: 'ok' } }));
      closers.push(server.close);
      const dir = tempDir('collect-shards-');
      const ids = Array.from({ length: 60 }, (_, i) => `ORD-${i}`);
      writeFileSync(join(dir, 'order.ndjson'), nd(...ids.map((id) => orderRecord(id))));
      writeFileSync(join(dir, 'status.ndjson'), nd(...ids.map((id) => ({ id, status: 'approved' }))));
      const state = freshStateDir();
      const sentBy: string[][] = [];
      for (const index of [0, 1, 2]) {
        const before = server.requests.length;
        const { code, stdout } = await runCli(
          [
            'backfill',
            dir,
            '--shard',
            `${index}/3`,
            '--base-url',
            server.url,
            '--state',
            state,
            '--format',
            'json',
          ],
          { env },
        );
        expect(code).toBe(0);
        const notes = (JSON.parse(stdout) as { notes: { code: string; message: string }[] }).notes;
        expect(notes.find((note) => note.code === 'shard')?.message).toMatch(
          new RegExp(`^shard ${index}/3: `),
        );
        const mine = server.requests
          .slice(before)
          .map((r) => `${r.method} ${(JSON.parse(r.body) as { id: string }).id}`);
        for (const request of mine) expect(shardOf(request.split(' ')[1]!, 3)).toBe(index);
        sentBy.push(mine);
      }
      const all = sentBy.flat();
      expect(all).toHaveLength(120);
      expect(new Set(all).size).toBe(120);
      for (const id of ids) {
        const order = server.requests.findIndex((r) => r.method === 'POST' && r.body.includes(`"${id}"`));
        const status = server.requests.findIndex((r) => r.method === 'PUT' && r.body.includes(`"${id}"`));
        expect(order).toBeLessThan(status);
      }
    },
  );

  it('refuses a shard that is not I/N with 0 <= I < N', async () => {
    const { code, stderr } = await runCli([
      'order',
      'fixtures/order/valid.csv',
      '--dry-run',
      '--shard',
      '4/4',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('0 <= I < N');
  });

  it('refuses a shard count past 10,000 with exit 2, naming the limit', async () => {
    const { code, stderr } = await runCli([
      'order',
      'fixtures/order/valid.csv',
      '--dry-run',
      '--shard',
      '0/99999999999999999999',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('at most 10,000 shards');
  });
});
