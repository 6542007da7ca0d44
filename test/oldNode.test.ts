/**
 * On a Node collect does not run on (before 22.13), the bin says which Node it needs in one line: exit 2, no
 * stack trace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = 'dist/cli/collect.cjs';

/**
 * A Node older than 22.13 on this machine: COLLECT_OLD_NODE, else the first `node` on PATH, in /usr/local/bin
 * or /usr/bin that is one.
 */
function findOldNode(): string | undefined {
  const candidates = [
    process.env.COLLECT_OLD_NODE,
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')),
    '/usr/local/bin/node',
    '/usr/bin/node',
  ];
  for (const node of candidates) {
    if (!node || !existsSync(node)) continue;
    const version = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    const [major = 99, minor = 0] = (version ?? '').split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 13)) return node;
  }
  return undefined;
}

const oldNode = findOldNode();
const ci = process.env.CI === 'true';
const missing =
  'SKIPPED: no Node older than 22.13 found (COLLECT_OLD_NODE, PATH, /usr/local/bin, /usr/bin); set ' +
  'COLLECT_OLD_NODE=/path/to/node to run it';

describe('the collect bin on an old Node', () => {
  it.skipIf(oldNode === undefined && !ci)(
    oldNode === undefined && !ci ? missing : 'says which Node it needs in one line and exits 2',
    () => {
      // Under CI=true nothing is skipped: .ci/run provides an old Node.
      expect(oldNode, missing).toBeDefined();
      const run = spawnSync(oldNode!, [BIN, 'order', 'fixtures/order/valid.csv', '--dry-run'], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^collect: needs Node 22\.13 or later .*npm install -g node@24.*\n$/);
      expect(run.stderr.split('\n')).toHaveLength(2);
    },
  );

  it('the same bin runs the command on this Node', () => {
    const run = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
