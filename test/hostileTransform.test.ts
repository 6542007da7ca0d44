/** A --transform module that misbehaves gets a verdict, never exit 13 or 70: the built CLI, as a user runs it. */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { tempDir } from './helpers/tempDir.js';

function collect(args: string[]) {
  const child = spawn(process.execPath, ['dist/cli/main.js', ...args], {
    env: { PATH: process.env.PATH ?? '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/**
 * Two orders (A on line 1, B on line 2) and a transform module of the given text, checked by a dry run with a
 * state.
 */
async function dryRun(transform: string, extra: string[] = []) {
  const dir = tempDir('collect-transform-');
  writeFileSync(join(dir, 'orders.ndjson'), nd(orderRecord('A'), orderRecord('B')));
  writeFileSync(join(dir, 'fix.mjs'), transform);
  const result = await collect([
    'order',
    join(dir, 'orders.ndjson'),
    '--dry-run',
    '--format',
    'json',
    '--state',
    join(dir, 'state'),
    '--transform',
    join(dir, 'fix.mjs'),
    ...extra,
  ]);
  return { ...result, module: join(dir, 'fix.mjs') };
}

type Report = {
  summary: { valid: number; invalid: number };
  issues: { code: string; line: number; message: string }[];
};

describe('a hostile --transform', () => {
  it(
    'whose promise never settles: its record gets transform-failed after --transform-timeout, naming ' +
      'the module and the line; the rest goes on',
    async () => {
      const { code, stdout, module } = await dryRun(
        "export default (r) => (r.id === 'A' ? new Promise(() => {}) : r);\n",
        ['--transform-timeout', '300'],
      );
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as Report;
      expect(report.summary).toMatchObject({ valid: 1, invalid: 1 });
      expect(report.issues).toEqual([
        expect.objectContaining({
          code: 'transform-failed',
          line: 1,
          message: `--transform ${module} did not settle within 300 ms for this record`,
        }),
      ]);
    },
    30_000,
  );

  it.each([
    ['a cyclic object', "export default (r) => (r.id === 'A' ? Object.assign(r, { self: r }) : r);\n"],
    ['a BigInt', "export default (r) => (r.id === 'A' ? { ...r, total_paid_value: 10n } : r);\n"],
  ])(
    'returning %s: a transform-failed issue of that record, never exit 70',
    async (_, transform) => {
      const { code, stdout, stderr, module } = await dryRun(transform);
      expect(stderr).toBe('');
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as Report;
      expect(report.summary).toMatchObject({ valid: 1, invalid: 1 });
      expect(report.issues).toEqual([
        expect.objectContaining({
          code: 'transform-failed',
          line: 1,
          message: expect.stringContaining(`--transform ${module} returned something that is not JSON data`),
        }),
      ]);
    },
    30_000,
  );

  it.each([
    [
      'on a record',
      "export default (r) => { if (r.id === 'B') Object.prototype.polluted = 'yes'; return r; };\n",
      'Object.prototype.polluted was added) on ',
    ],
    [
      'when loaded',
      'Array.prototype.includes = () => true;\nexport default (r) => r;\n',
      'when loaded (Array.prototype.includes was changed)',
    ],
  ])(
    'polluting a built-in %s: exit 2 naming the module and the change, nothing checked further',
    async (_, transform, change) => {
      const { code, stdout, stderr, module } = await dryRun(transform);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(`--transform ${module} changed JavaScript's built-in objects`);
      expect(stderr).toContain(change);
      expect(stderr).not.toContain('internal error');
    },
    30_000,
  );
});
