/**
 * A full disk loses nothing (issue 39): a send whose state disk fills is exit 2 naming the space,
 * and once there is room the same command goes on, against a local server that counts what it got.
 * A state SQLite finds whole is used whole: a main file left short by an interrupted checkpoint,
 * its pages in the WAL, opens and resumes.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/sqlite.js';
import { nd, orderRecord } from './helpers/history.js';
import { startServer, type SeenRequest } from './helpers/localServer.js';
import { freshStateDir } from './helpers/memoryIo.js';
import { smallDisk } from './helpers/smallDisk.js';
import { tempDir } from './helpers/tempDir.js';

const CONCURRENCY = 8;
const env = { COLLECT_API_KEY: 'k-disk-full-0123' };
const work = tempDir('collect-disk-full-');

const server = await startServer(() => ({ status: 201, body: { message: 'ok' } }));
afterAll(() => server.close());

function orders(name: string, from: number, count: number): string {
  const file = join(work, name);
  writeFileSync(file, nd(...Array.from({ length: count }, (_, i) => orderRecord(`ORD-${from + i}`))));
  return file;
}

/** How many requests each order got, from `start` on in the server's log. */
function received(requests: SeenRequest[], start = 0): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests.slice(start)) {
    const id = (JSON.parse(request.body) as { id: string }).id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/**
 * The built collect in its own process, as a user runs it again: a run that stopped left its lock to a
 * process that is gone.
 */
function send(file: string, state: string): Promise<{ code: number | null; stderr: string }> {
  const argv = [
    'order',
    file,
    '--base-url',
    server.url,
    '--state',
    state,
    '--concurrency',
    String(CONCURRENCY),
  ];
  const child = spawn(process.execPath, ['dist/cli/main.js', ...argv], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('a state disk that fills during a send', () => {
  const disk = smallDisk(192 * 1024);
  afterAll(() => {
    if ('dir' in disk) disk.unmount();
  });

  it(
    'is exit 2 naming the space each time; with room again the same command ends the job, nothing ' + 'lost',
    async (context) => {
      if (!('dir' in disk)) return context.skip(disk.reason);
      const ORDERS = 4000;
      const file = orders('orders.ndjson', 0, ORDERS);
      const state = join(disk.dir, 'state');
      const start = server.requests.length;
      let size = 192 * 1024;
      let failed = 0;
      for (let run = 0; ; run++) {
        const { code, stderr } = await send(file, state);
        expect(stderr).not.toMatch(/internal error|\n\s+at /);
        if (code === 0) break;
        expect(code, stderr).toBe(2);
        expect(stderr).toMatch(/is full|no space left/i);
        expect(stderr).toContain('fix: free space');
        failed++;
        // Freeing space, a little at a time: the state may fill the disk again before the end.
        size *= 2;
        disk.resize(size);
        expect(run).toBeLessThan(12);
      }
      expect(failed).toBeGreaterThan(0);
      const counts = received(server.requests, start);
      expect(counts.size).toBe(ORDERS);
      const duplicates = [...counts.values()].reduce((sum, n) => sum + n - 1, 0);
      // At most the answers in flight and those not yet durable at each stop (durableOutcomes.ts).
      expect(duplicates).toBeLessThanOrEqual(failed * 2 * CONCURRENCY);
    },
    120_000,
  ); // several whole runs of the built collect: a bound for a loaded machine, not a speed target
});

describe('a state whose main file is short while its WAL holds the pages', () => {
  it('opens, is judged whole by SQLite, and the same command resumes without sending again', async () => {
    const first = orders('first.ndjson', 10_000, 300);
    const state = freshStateDir();
    expect((await send(first, state)).code).toBe(0);
    const name = readdirSync(state).find((entry) => entry.endsWith('.sqlite'))!;
    // An interrupted checkpoint: every page is in the WAL, the main file stops short of them.
    const db = openDatabase(join(state, name));
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.exec('PRAGMA wal_autocheckpoint = 0');
    db.exec('VACUUM'); // in WAL mode, every page of the database goes to the WAL
    const copy = join(work, 'short');
    mkdirSync(copy);
    copyFileSync(join(state, name), join(copy, name));
    copyFileSync(join(state, `${name}-wal`), join(copy, `${name}-wal`));
    db.close();
    const short = Math.floor(statSync(join(copy, name)).size / 2 / 4096) * 4096;
    truncateSync(join(copy, name), short);
    expect(statSync(join(copy, `${name}-wal`)).size).toBeGreaterThan(short);

    const start = server.requests.length;
    const both = orders('both.ndjson', 10_000, 400); // the 300 sent, and 100 more
    const { code, stderr } = await send(both, copy);
    expect(stderr).not.toContain('damaged');
    expect(code).toBe(0);
    const counts = received(server.requests, start);
    expect([...counts.keys()].sort()).toEqual(
      Array.from({ length: 100 }, (_, i) => `ORD-${10_300 + i}`).sort(),
    );
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });
});
