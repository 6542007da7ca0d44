/**
 * Every fast path against its plain twin (COLLECT_FAST_PATHS=0: no compiled validator, hash or row
 * builder, no plain CSV reader, no worker threads): the same report, byte for byte, for inputs large
 * enough that the workers and the compiled code take over.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  generateOrders,
  generateOrdersJson,
  generateOrdersNdjson,
  orderRecord,
} from '../bench/generate-orders.js';
import { tempDir } from './helpers/tempDir.js';

const dir = tempDir('collect-fast-paths-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROWS = 2500;
/** Two runs of a few thousand records each, on two cores shared with the other test files. */
const SLOW = { timeout: 120_000 };

function collect(args: string[], fast: boolean): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH ?? '', ...(fast ? {} : { COLLECT_FAST_PATHS: '0' }) };
    const child = spawn(process.execPath, ['dist/cli/main.js', ...args, '--format', 'json'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

/**
 * Orders with every 1000th one invalid, and hostile records besides (not JSON, not an object, unknown fields,
 * a repeated order).
 */
const extra = [
  '{"id": broken',
  '[1,2]',
  JSON.stringify({ ...orderRecord(7), id: 'ORD-7' }),
  JSON.stringify({ ...orderRecord(8), colour: 'red', user: { id: 1 } }),
];

async function inputs(): Promise<Record<string, string>> {
  const csv = join(dir, 'orders.csv');
  const ndjson = join(dir, 'orders.ndjson');
  const json = join(dir, 'orders.json');
  await generateOrders(csv, ROWS);
  await generateOrdersNdjson(ndjson, ROWS);
  await generateOrdersJson(json, ROWS);
  writeFileSync(ndjson, `${extra.join('\n')}\n`, { flag: 'a' });
  const truncated = join(dir, 'truncated.json');
  writeFileSync(
    truncated,
    `[${Array.from({ length: ROWS }, (_, n) => JSON.stringify(orderRecord(n))).join(',\n')},\n` +
      `${extra.join(',\n')},\n{"id":"ORD-X","tot`,
  );
  return { csv, ndjson, json, truncated };
}

describe('COLLECT_FAST_PATHS=0 (the plain twins) gives the same report as the fast paths', async () => {
  const files = await inputs();
  it.each(Object.keys(files))('collect order (%s) --dry-run --no-state', SLOW, async (name) => {
    const args = ['order', files[name]!, '--dry-run', '--no-state'];
    const [fast, plain] = await Promise.all([collect(args, true), collect(args, false)]);
    expect(fast.code).toBe(1);
    expect(JSON.parse(fast.stdout).summary.records).toBeGreaterThanOrEqual(ROWS);
    expect(fast).toEqual(plain);
  });

  it('collect order --dry-run with a state folder (the default path)', SLOW, async () => {
    const states = [join(dir, 'state-fast'), join(dir, 'state-plain')];
    states.forEach((state) => mkdirSync(state));
    const args = (state: string) => ['order', files.ndjson!, '--dry-run', '--state', state];
    const [fast, plain] = await Promise.all([
      collect(args(states[0]!), true),
      collect(args(states[1]!), false),
    ]);
    expect(fast.code).toBe(1);
    expect(fast).toEqual(plain);
  });
});
