/** An order's records move together: nothing of an order reaches the service before its creation is accepted (§1.6). */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { startServer } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const env = { COLLECT_API_KEY: 'test-order-together-key' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

interface Report {
  summary: Record<string, number>;
  notes: { code: string; count?: number }[];
  issues: { code: string; file: string; line: number; message: string; endpoint: string }[];
}

function history(files: Record<string, string>): string {
  const dir = tempDir('collect-together-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function backfill(dir: string, args: string[]) {
  const { code, stdout, stderr } = await runCli(['backfill', dir, '--format', 'json', ...args], { env });
  if (code === 2) throw new Error(stderr);
  return { code, report: JSON.parse(stdout) as Report };
}

async function sandbox() {
  const started = await testSandbox();
  const order = async (id: string) => {
    const answer = await fetch(`${started.url}/_sandbox/orders/${id}`);
    return answer.status === 200
      ? ((await answer.json()) as { updates: Record<string, unknown[]> })
      : undefined;
  };
  return { url: started.url, order };
}

const badOrder = orderRecord('A', { creation_datetime: 'yesterday' });

describe('an update whose order creation is invalid', () => {
  it('is an error of its own (order-invalid), naming the creation and its error', async () => {
    const dir = history({
      'order.ndjson': nd(badOrder, orderRecord('B')),
      'status.ndjson': nd({ id: 'A', status: 'approved' }, { id: 'B', status: 'approved' }),
    });
    const { code, report } = await backfill(dir, ['--dry-run']);
    expect(code).toBe(1);
    expect(report.summary).toMatchObject({ records: 4, valid: 2, invalid: 2 });
    const held = report.issues.filter((issue) => issue.code === 'order-invalid');
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ endpoint: 'status', line: 1 });
    expect(held[0]!.message).toContain(`${join(dir, 'order.ndjson')}:1`);
    expect(held[0]!.message).toContain('is invalid (invalid-datetime)');
    expect(held[0]!.message).toContain('held');
  });

  it(
    'is never sent; it goes to --rejects with its creation, and the fixed rejects restore the whole ' +
      'order',
    async () => {
      const service = await sandbox();
      const state = freshStateDir();
      const dir = history({
        'order.ndjson': nd(badOrder, orderRecord('B')),
        'status.ndjson': nd({ id: 'A', status: 'approved' }, { id: 'B', status: 'approved' }),
      });
      const rejects = join(tempDir('collect-rejects-'), 'rejects');
      const first = await backfill(dir, ['--base-url', service.url, '--state', state, '--rejects', rejects]);
      expect(first.code).toBe(1);
      expect(first.report.summary).toMatchObject({ sent: 2, accepted: 2, rejected: 0 });
      expect(await service.order('A')).toBeUndefined();
      expect(readdirSync(rejects).sort()).toEqual(['order.ndjson', 'status.ndjson']);
      expect(readFileSync(join(rejects, 'status.ndjson'), 'utf8')).toContain('"id":"A"');
      // The analyst fixes the creation in the rejects file and feeds the folder back.
      const fixed = readFileSync(join(rejects, 'order.ndjson'), 'utf8').replace(
        '"yesterday"',
        '"2024-03-01T10:00:00Z"',
      );
      writeFileSync(join(rejects, 'order.ndjson'), fixed);
      const again = await backfill(rejects, ['--base-url', service.url, '--state', state]);
      expect(again.code).toBe(0);
      expect(again.report.summary).toMatchObject({ sent: 2, accepted: 2 });
      expect((await service.order('A'))?.updates.status).toHaveLength(1);
    },
  );

  it(
    'after runs over the fixed input that end with exit 0, the service has every valid record of it, ' +
      'in flow order',
    async () => {
      const service = await sandbox();
      const state = freshStateDir();
      const files = {
        'order.ndjson': nd(badOrder),
        'status.ndjson': nd({ id: 'A', status: 'approved' }),
        'fraud.ndjson': nd({ order_id: 'A', fraud_signal_type: 'chargeback' }),
      };
      const dir = history(files);
      expect((await backfill(dir, ['--base-url', service.url, '--state', state])).code).toBe(1);
      writeFileSync(join(dir, 'order.ndjson'), nd(orderRecord('A')));
      const fixed = await backfill(dir, ['--base-url', service.url, '--state', state]);
      expect(fixed.code).toBe(0);
      expect(fixed.report.summary).toMatchObject({ sent: 3, accepted: 3, skipped: 0 });
      const held = await service.order('A');
      expect(held?.updates.status).toHaveLength(1);
      expect(held?.updates.fraud).toHaveLength(1);
    },
  );
});

describe('a creation the service refuses', () => {
  it('holds every later record of its order, in this run and the next, until the creation is accepted', async () => {
    // The service refuses the first version of order A's creation; it accepts everything else.
    const server = await startServer((request) =>
      request.method === 'POST' && request.body.includes('"total_paid_value":10')
        ? { status: 400, body: { error_message: { total_paid_value: ['does not match the payments'] } } }
        : { status: 200, body: { message: 'ok' } },
    );
    closers.push(server.close);
    const state = freshStateDir();
    const dir = history({
      'order.ndjson': nd(orderRecord('A')),
      'status.ndjson': nd({ id: 'A', status: 'approved' }),
    });
    // One request at a time: the creation's answer is in before its status is handed over.
    const args = ['--base-url', server.url, '--state', state, '--concurrency', '1'];
    const first = await backfill(dir, args);
    expect(first.code).toBe(1);
    expect(server.requests.map((r) => r.method)).toEqual(['POST']);
    expect(first.report.summary).toMatchObject({ sent: 1, rejected: 1, accepted: 0, unsent: 1 });
    const held = first.report.issues.find((issue) => issue.code === 'held');
    expect(held).toMatchObject({ endpoint: 'status' });
    expect(held!.message).toContain('HTTP 400');
    expect(first.report.notes).toContainEqual(expect.objectContaining({ code: 'held', count: 1 }));
    // Unchanged: the creation is not sent again, and its status is still held; the run does not pass.
    const second = await backfill(dir, args);
    expect(second.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(second.report.issues.map((issue) => issue.code)).toContain('held');
    // Fixed: the creation goes first, then its status.
    writeFileSync(join(dir, 'order.ndjson'), nd(orderRecord('A', { total_paid_value: 12 })));
    const third = await backfill(dir, args);
    expect(third.code).toBe(0);
    expect(server.requests.slice(1).map((r) => r.method)).toEqual(['POST', 'PUT']);
  });
});
