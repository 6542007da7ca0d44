import { describe, expect, it } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { acceptingService } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { SqliteState } from '../src/state/sqlite/sqliteState.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'k-fraud-by-hand' };
const service = acceptingService;

const mark = (url: string, ...extra: string[]) => [
  'fraud',
  '--order-id',
  'ORD-1',
  '--type',
  'chargeback',
  '--comment',
  'cb 2024-04-02',
  '--base-url',
  url,
  ...extra,
];

describe('collect fraud --order-id (by hand)', () => {
  it('shows the exact body and sends it with --yes', async () => {
    const server = await service();
    const { code, stderr } = await runCli(mark(server.url, '--yes', '--no-state'), { env });
    expect(code).toBe(0);
    expect(stderr).toContain('"fraud_signal_type": "chargeback"');
    expect(server.requests.map((r) => [r.method, r.path, JSON.parse(r.body)])).toEqual([
      [
        'POST',
        '/v2/order/mark_fraudulent',
        { order_id: 'ORD-1', fraud_signal_type: 'chargeback', fraud_comment: 'cb 2024-04-02' },
      ],
    ]);
  });
  it('asks on a terminal and sends only on yes', async () => {
    const server = await service();
    const no = await runCli(mark(server.url, '--no-state'), { env, stdin: 'n\n', stdinIsTTY: true });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('Send this fraud mark? [y/N]');
    expect(server.requests).toHaveLength(0);
    const yes = await runCli(mark(server.url, '--no-state'), { env, stdin: 'y\n', stdinIsTTY: true });
    expect(yes.code).toBe(0);
    expect(server.requests).toHaveLength(1);
  });
  it('never asks without a terminal: it wants --yes', async () => {
    const server = await service();
    const { code, stdout, stderr } = await runCli(mark(server.url, '--no-state'), { env, stdin: 'y\n' });
    expect(code).toBe(2);
    expect(stderr).toContain('add --yes');
    // Refused before the record is checked or shown: nothing else is printed.
    expect(stderr).not.toContain('mark_fraudulent');
    expect(stdout).toBe('');
    expect(server.requests).toHaveLength(0);
  });
  it('is checked like a file record: a missing comment for third_party_antifraud is refused', async () => {
    const server = await service();
    const { code, stdout } = await runCli(
      [
        'fraud',
        '--order-id',
        'ORD-1',
        '--type',
        'third_party_antifraud',
        '--base-url',
        server.url,
        '--yes',
        '--no-state',
      ],
      { env },
    );
    expect(code).toBe(1);
    expect(stdout).toContain('fraud-comment-required');
    expect(server.requests).toHaveLength(0);
  });
  it('refuses with exit 1 when the state says the service rejected the order', async () => {
    const server = await service();
    const state = freshStateDir();
    const dir = tempDir('collect-hand-');
    writeFileSync(join(dir, 'order.ndjson'), nd(orderRecord('ORD-1', { evaluate: true })));
    const seeded = await runCli(
      ['order', join(dir, 'order.ndjson'), '--base-url', server.url, '--state', state],
      { env },
    );
    expect(seeded.code).toBe(0);
    const store = SqliteState.open(state, server.url);
    store.rememberDecision('ORD-1', 'reject');
    store.close();
    const { code, stdout } = await runCli(mark(server.url, '--yes', '--state', state), { env });
    expect(code).toBe(1);
    expect(stdout).toContain('fraud-after-service-decline');
    expect(stdout).toContain('nothing sent: the fraud mark is not valid');
    expect(server.requests.filter((r) => r.path.endsWith('mark_fraudulent'))).toHaveLength(0);
  });
  it('with --dry-run only checks, and needs no key', async () => {
    const { code, stdout } = await runCli([
      'fraud',
      '--order-id',
      'ORD-1',
      '--type',
      'other',
      '--dry-run',
      '--no-state',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('fraud-comment-recommended');
  });
  it('refuses files and --order-id together, and --order-id without --type', async () => {
    expect(
      (
        await runCli([
          'fraud',
          'fixtures/fraud/valid.json',
          '--order-id',
          'X',
          '--type',
          'other',
          '--dry-run',
        ])
      ).code,
    ).toBe(2);
    expect((await runCli(['fraud', '--order-id', 'X', '--dry-run'])).stderr).toContain('--type is required');
  });
});
