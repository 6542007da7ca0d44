import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verdictMarks } from '../src/report/verdictLine.js';
import type { ExitCode } from '../src/core/exitCodes.js';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const KEY = { COLLECT_API_KEY: 'sk_test_verdict_0123456789abcdef' };
const dir = tempDir('collect-verdict-');
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

/** The verdict: the last line of stdout that is not an indented detail. */
const verdictOf = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => /^\S/.test(line))
    .at(-1);

type Case = { name: string; argv: () => string[]; env?: Record<string, string>; code: ExitCode };

const servers: Record<string, { url: string; close: () => Promise<void> }> = {};
beforeAll(async () => {
  servers.accepting = await startServer(() => ({ status: 200, body: { message: 'ok' } }));
  servers.rejecting = await startServer(() => ({ status: 422, body: { error_message: 'no' } }));
  servers.refusing = await startServer(() => ({ status: 401, body: { error_message: 'bad key' } }));
});
afterAll(async () => {
  for (const server of Object.values(servers)) await server.close();
});

const url = (name: string) => servers[name]!.url;
const VALID = join('fixtures', 'order', 'valid.ndjson');
const INVALID = join('fixtures', 'order', 'invalid.ndjson');
const chargebacks = [
  'chargebacks',
  'fixtures/chargebacks/report.csv',
  '--map',
  'fixtures/chargebacks/acquirer.yaml',
];
const ORDERS = ['--orders', 'fixtures/chargebacks/orders.ndjson'];
const byHand = [
  'fraud',
  '--order-id',
  'ORD-1',
  '--type',
  'chargeback',
  '--comment',
  'disputed',
  '--no-state',
];

const cases: Case[] = [
  { name: 'order: a valid dry run', argv: () => ['order', VALID, '--dry-run'], code: 0 },
  { name: 'order: an invalid dry run', argv: () => ['order', INVALID, '--dry-run'], code: 1 },
  {
    name: 'order: sent and accepted',
    argv: () => ['order', VALID, '--base-url', url('accepting')],
    env: KEY,
    code: 0,
  },
  {
    name: 'order: sent and rejected',
    argv: () => ['order', VALID, '--base-url', url('rejecting')],
    env: KEY,
    code: 1,
  },
  {
    name: 'order: the key refused',
    argv: () => ['order', VALID, '--base-url', url('refusing')],
    env: KEY,
    code: 3,
  },
  { name: 'order: a missing file', argv: () => ['order', join(dir, 'none.csv'), '--dry-run'], code: 2 },
  { name: 'backfill: a history', argv: () => ['backfill', 'fixtures/history', '--dry-run'], code: 0 },
  { name: 'fraud by hand: a dry run', argv: () => [...byHand, '--dry-run'], code: 0 },
  {
    name: 'fraud by hand: accepted',
    argv: () => [...byHand, '--yes', '--base-url', url('accepting')],
    env: KEY,
    code: 0,
  },
  {
    name: 'fraud by hand: rejected',
    argv: () => [...byHand, '--yes', '--base-url', url('rejecting')],
    env: KEY,
    code: 1,
  },
  {
    name: 'fraud by hand: the key refused',
    argv: () => [...byHand, '--yes', '--base-url', url('refusing')],
    env: KEY,
    code: 3,
  },
  {
    name: 'chargebacks: rows that need a human, dry run',
    argv: () => [...chargebacks, ...ORDERS, '--dry-run'],
    code: 1,
  },
  {
    name: 'chargebacks: every row matched, dry run',
    argv: () => [
      'chargebacks',
      file('matched.csv', 'acquirer_id,reason_code,network\nTX-2001,10.4,visa\n'),
      ...ORDERS,
      '--dry-run',
    ],
    code: 0,
  },
  {
    name: 'decisions: every row loaded',
    argv: () => [
      'decisions',
      file('good.csv', 'order_id,decision\nORD-1,reject\n'),
      '--base-url',
      url('accepting'),
      '--state',
      mkdtempSync(join(dir, 's-')),
    ],
    code: 0,
  },
  {
    name: 'decisions: a row not loaded',
    argv: () => [
      'decisions',
      file('bad.csv', 'order_id,decision\nORD-1,maybe\n'),
      '--base-url',
      url('accepting'),
      '--state',
      mkdtempSync(join(dir, 's-')),
    ],
    code: 1,
  },
];

describe("the last verdict of a command's pretty report is its exit code's", () => {
  for (const { name, argv, env, code } of cases) {
    it(`${name}: exit ${code}`, async () => {
      const result = await runCli(argv(), env ? { env } : {});
      expect(result.code, result.stderr).toBe(code);
      const verdict = verdictOf(result.stdout);
      // A usage error prints no report: nothing on stdout may claim anything.
      if (code === 2) expect(result.stdout).toBe('');
      else expect(verdict?.startsWith(verdictMarks[code]), `${verdict}`).toBe(true);
      if (code !== 0) expect(result.stdout).not.toMatch(/^✔/m);
    });
  }
});
