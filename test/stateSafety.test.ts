import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateLock } from '../src/state/sqlite/stateLock.js';
import { SqliteState } from '../src/state/sqlite/sqliteState.js';
import { namespaceOf } from '../src/state/remembered.js';
import { nd, orderRecord } from './helpers/history.js';
import { acceptingService } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'k-12345678' };
const service = acceptingService;

function orders(count: number): string {
  const path = join(tempDir('collect-safety-'), 'orders.ndjson');
  writeFileSync(path, nd(...Array.from({ length: count }, (_, i) => orderRecord(`ORD-${i}`))));
  return path;
}

/** The built binary in its own process, as two users on one machine would run it. */
function collect(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/cli/main.js', ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a state that cannot be trusted', () => {
  it('is refused with exit 2 before anything is sent: an empty file where the state should be', async () => {
    const server = await service();
    const state = freshStateDir();
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, `${namespaceOf(server.url)}.sqlite`), '');
    const { code, stderr } = await runCli(['order', orders(3), '--base-url', server.url, '--state', state], {
      env,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('is an empty file (0 bytes)');
    expect(stderr).toContain('fix: move it aside (mv ');
    expect(server.requests).toHaveLength(0);
  });
});

describe('the lock of a run on its state', () => {
  it('refuses a second run with exit 2, naming the holder, and sends nothing', async () => {
    const server = await service();
    const state = freshStateDir();
    const store = SqliteState.open(state, server.url);
    const held = await StateLock.acquire(store.database, {
      where: state,
      waitMs: 0,
      command: 'collect backfill history/',
    });
    const { code, stderr } = await runCli(['order', orders(3), '--base-url', server.url, '--state', state], {
      env,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(`pid ${process.pid} on host`);
    expect(stderr).toContain('collect backfill history/');
    expect(stderr).toContain('--lock-wait');
    expect(server.requests).toHaveLength(0);
    held.release();
    store.close();
    expect(
      (await runCli(['order', orders(3), '--base-url', server.url, '--state', state], { env })).code,
    ).toBe(0);
    expect(server.requests).toHaveLength(3);
  });

  it('keeps two runs started together on a fresh state from sending anything twice', async () => {
    const server = await service();
    const state = join(freshStateDir(), 'fresh');
    const input = orders(400);
    const runs = await Promise.all(
      [1, 2].map(() =>
        collect(['order', input, '--base-url', server.url, '--state', state, '--lock-wait', '60']),
      ),
    );
    expect(runs.map((run) => [run.code, run.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    expect(server.requests).toHaveLength(400);
  });
});
