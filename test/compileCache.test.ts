/**
 * The bin keeps V8's compiled code in Node's compile cache, for the reading threads too: a second run and each
 * worker skip compiling collect's modules. NODE_DISABLE_COMPILE_CACHE, Node's own switch, turns it off.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/tempDir.js';

const BIN = 'dist/cli/collect.cjs';

/** A dry run of an NDJSON file large enough for the reading threads, with its own temporary folder. */
function dryRun(extraEnv: Record<string, string>): { tmp: string; status: number | null } {
  const tmp = tempDir('collect-compile-cache-');
  const file = join(tmp, 'orders.ndjson');
  const line = (n: number) =>
    JSON.stringify({
      id: `O-${n}`,
      creation_datetime: '2024-01-01T00:00:00Z',
      total_paid_value: 1,
      currency: 'BRL',
    });
  writeFileSync(file, Array.from({ length: 3000 }, (_, n) => line(n)).join('\n'));
  const { status } = spawnSync(
    process.execPath,
    [BIN, 'order', file, '--dry-run', '--no-state', '--format', 'json'],
    {
      env: { ...process.env, TMPDIR: tmp, ...extraEnv },
    },
  );
  return { tmp, status };
}

/** The compiled modules cached, over every cache folder Node made (the main thread's and the workers'). */
const cachedModules = (tmp: string) => {
  const cache = join(tmp, 'node-compile-cache');
  if (!existsSync(cache)) return 0;
  return readdirSync(cache).reduce((sum, dir) => sum + readdirSync(join(cache, dir)).length, 0);
};

describe('the compile cache', () => {
  it('holds the modules of the main thread and of the reading threads after a run', () => {
    const { tmp, status } = dryRun({});
    expect(status).toBe(0);
    // Two folders, each holding modules: the workers run with other heap flags, which V8 keys its code by.
    const folders = readdirSync(join(tmp, 'node-compile-cache'));
    expect(folders).toHaveLength(2);
    for (const folder of folders)
      expect(readdirSync(join(tmp, 'node-compile-cache', folder)).length).toBeGreaterThan(5);
  });

  it('is off under NODE_DISABLE_COMPILE_CACHE', () => {
    const { tmp, status } = dryRun({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(status).toBe(0);
    expect(cachedModules(tmp)).toBe(0);
  });
});
