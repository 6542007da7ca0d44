/** Running the same command again is the recovery: the journal in the state decides what goes again. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../src/sandbox/server.js';
import { nd, orderRecord } from './helpers/history.js';
import { startServer } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const env = { COLLECT_API_KEY: 'test-rerun-key' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function sandbox(faults: Partial<SandboxOptions['faults']> = {}) {
  const started = await testSandbox({
    seed: 3,
    slowMs: 300,
    faults: { fail: 0, throttle: 0, slow: 0, reset: 0, ...faults },
  });
  return started;
}

async function send(url: string, state: string, extra: string[] = [], files = 'fixtures/history') {
  const { code, stdout } = await runCli(
    ['backfill', files, '--base-url', url, '--state', state, '--format', 'json', ...extra],
    { env },
  );
  return {
    code,
    report: JSON.parse(stdout) as {
      summary: Record<string, number>;
      notes: { code: string; count?: number }[];
    },
  };
}

describe('re-running a backfill', () => {
  it('sends nothing the service already accepted, and everything again with --resend', async () => {
    const { url } = await sandbox();
    const state = freshStateDir();
    expect((await send(url, state)).report.summary).toMatchObject({ sent: 21, accepted: 21, skipped: 0 });
    const again = await send(url, state);
    expect(again.code).toBe(0);
    expect(again.report.summary).toMatchObject({ records: 21, sent: 0, skipped: 21 });
    expect((await send(url, state, ['--resend'])).report.summary).toMatchObject({ sent: 21, accepted: 21 });
  });

  it('retries what failed, and sends a rejected record again only once it has changed', async () => {
    const { url } = await sandbox();
    const state = freshStateDir();
    const dir = tempDir('collect-rerun-');
    writeFileSync(join(dir, 'order.ndjson'), nd(orderRecord('A', { payments: [{ id: 'P1' }] })));
    writeFileSync(
      join(dir, 'payment.ndjson'),
      nd({ id: 'P1', order_id: 'A', acquirer_id: 'ACQ1' }, { id: 'P2', order_id: 'A', acquirer_id: 'ACQ2' }),
    );
    // P2 is not a payment of A: the sandbox rejects it (404); collect's own rule is an error too, so check
    // the service alone.
    const first = await send(url, state, [], dir);
    expect(first.report.summary).toMatchObject({ invalid: 1, sent: 2, accepted: 2 });
    const down = await sandbox({ fail: 1 });
    writeFileSync(join(dir, 'status.ndjson'), nd({ id: 'A', status: 'approved' }));
    const failed = await send(down.url, state, ['--retries', '0'], dir);
    expect(failed.code).toBe(3);
    const retried = await send(url, state, [], dir);
    expect(retried.report.summary).toMatchObject({ sent: 1, accepted: 1, skipped: 2 });
  });

  it(
    'sends again an update refused because the service did not know its order (404), until it is ' +
      'accepted',
    async () => {
      const { url } = await sandbox();
      const state = freshStateDir();
      const dir = tempDir('collect-rerun-');
      // The sandbox has never seen order Z, but the state says it was created: a 404 rejection.
      writeFileSync(join(dir, 'order.ndjson'), nd(orderRecord('Z')));
      await send(url, state, [], dir);
      const fresh = await sandbox();
      writeFileSync(join(dir, 'order.ndjson'), '');
      writeFileSync(join(dir, 'status.ndjson'), nd({ id: 'Z', status: 'approved' }));
      const rejected = await send(fresh.url, state, [], dir);
      expect(rejected.code).toBe(1);
      expect(rejected.report.summary).toMatchObject({ sent: 1, rejected: 1 });
      // Unchanged, it is sent again: the record was not at fault, its order was missing.
      const unchanged = await send(fresh.url, state, [], dir);
      expect(unchanged.code).toBe(1);
      expect(unchanged.report.summary).toMatchObject({ sent: 1, rejected: 1, skipped: 0 });
      expect(unchanged.report.notes).not.toContainEqual(expect.objectContaining({ code: 'rejected-before' }));
      // Once the order is at the service, the same status goes through.
      writeFileSync(join(dir, 'order.ndjson'), nd(orderRecord('Z')));
      const created = await send(fresh.url, state, ['--resend'], dir);
      expect(created.code).toBe(0);
      expect((await send(fresh.url, state, [], dir)).report.summary).toMatchObject({ sent: 0, skipped: 2 });
    },
  );

  it('does not send again an unchanged record the service rejected, and does not pass until it is fixed', async () => {
    // A service that refuses one status for its content (400), whatever the order.
    const server = await startServer((request) =>
      request.body.includes('"status_reason":"nope"')
        ? { status: 400, body: { error_message: { status_reason: ['not allowed'] } } }
        : { status: 200, body: {} },
    );
    closers.push(server.close);
    const state = freshStateDir();
    const dir = tempDir('collect-rerun-');
    writeFileSync(join(dir, 'order.ndjson'), nd(orderRecord('Z')));
    writeFileSync(join(dir, 'status.ndjson'), nd({ id: 'Z', status: 'approved', status_reason: 'nope' }));
    const rejected = await send(server.url, state, [], dir);
    expect(rejected.code).toBe(1);
    expect(rejected.report.summary).toMatchObject({ sent: 2, rejected: 1 });
    const unchanged = await send(server.url, state, [], dir);
    expect(unchanged.report.summary).toMatchObject({ sent: 0, skipped: 2 });
    expect(unchanged.report.notes).toContainEqual(
      expect.objectContaining({ code: 'rejected-before', count: 1 }),
    );
    expect(unchanged.code).toBe(1);
    writeFileSync(join(dir, 'status.ndjson'), nd({ id: 'Z', status: 'approved', status_reason: 'fixed' }));
    const fixed = await send(server.url, state, [], dir);
    expect(fixed.report.summary).toMatchObject({ sent: 1, accepted: 1 });
    expect(fixed.code).toBe(0);
  });
});
