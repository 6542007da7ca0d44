import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createRegistry, registry, resources } from '../src/resources/registry.js';
import {
  noChecks,
  textField,
  type Facts,
  type RememberedTable,
  type Resource,
} from '../src/resources/resource.js';
import { checkAndSend, type RunRequest } from '../src/run/checkAndSend.js';
import { openState } from '../src/state/openState.js';
import { freshStateDir } from './helpers/memoryIo.js';
import { itWith } from './helpers/withPrerequisite.js';
import { startTestPostgres, type TestPostgres } from './helpers/postgres.js';
import { testSandbox } from './helpers/sandbox.js';

/**
 * A throwaway sixth endpoint, declared only here: the proof that an endpoint's identity lives in
 * its Resource. It goes through a dry run, the flow rules, the sandbox and the state untouched.
 */
const refundSchema = z.object({ id: z.string().min(1), order_id: z.string().min(1), value: z.number() });
type RefundFacts = Facts & { value: string };
/** What the state remembers of refunds: a table of their own, declared as data. */
const refundsTable: RememberedTable<RefundFacts> = {
  name: 'refunds',
  columns: ['refund_id', 'value'],
  key: 1,
  rows: (facts) => [[facts.key, facts.value]],
};
const refundResource: Resource = {
  name: 'refund',
  method: 'POST',
  path: '/v2/order/refund',
  summary: 'refund part of an order',
  role: 'update',
  orderField: 'order_id',
  accepted: { status: 201, message: 'Refund recorded' },
  schema: refundSchema,
  checks: noChecks,
  example: { id: 'R-1', order_id: 'ORD-1001', value: 10 },
  facts: (record) => {
    const orderId = textField(record.order_id);
    const id = textField(record.id);
    return orderId && id ? { kind: 'refund', orderId, key: id, value: String(record.value) } : null;
  },
  remember: () => {},
  tables: [refundsTable as RememberedTable],
};

const withRefunds = createRegistry([...registry.all, refundResource]);

const postgres: TestPostgres | null = await startTestPostgres();
afterAll(() => postgres?.stop());

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function memorySpec(name: string, records: unknown[]) {
  return { name, format: 'json' as const, gzip: false, records };
}

function deps() {
  const stdin = new PassThrough();
  stdin.end();
  return {
    stdin,
    now: () => new Date('2025-01-01T00:00:00Z'),
    scratchDir: tmpdir(),
    redact: (text: string) => text,
    progress: () => ({ tick: () => {}, stop: () => {} }),
    onInterrupt: () => () => {},
  };
}

const request = (inputs: RunRequest['inputs'], extra: Partial<RunRequest> = {}): RunRequest => ({
  inputs,
  stateDir: null,
  strict: false,
  timeoutMs: 2000,
  concurrency: 2,
  retries: 0,
  resend: false,
  maxRecordBytes: 1 << 20,
  ...extra,
});

describe('a new endpoint is one Resource and one registry line', () => {
  it('is checked against its schema in a dry run', async () => {
    const result = await checkAndSend(
      request([
        {
          resource: refundResource,
          spec: memorySpec('refunds', [{ id: 'R-1', order_id: 'A', value: 'ten' }]),
        },
      ]),
      deps(),
    );
    expect(result.exitCode).toBe(1);
    expect(result.report.issues).toContainEqual(
      expect.objectContaining({ endpoint: 'refund', path: 'value', file: 'refunds' }),
    );
  });

  it('takes part in the flow rules: unknown-order names its own order field', async () => {
    const orders = { resource: resources.order, spec: memorySpec('orders', [{ id: 'A' }]) };
    const refunds = {
      resource: refundResource,
      spec: memorySpec('refunds', [
        { id: 'R-1', order_id: 'A', value: 5 },
        { id: 'R-2', order_id: 'B', value: 5 },
      ]),
    };
    const result = await checkAndSend(request([orders, refunds]), deps());
    const unknown = result.report.issues.filter((issue) => issue.code === 'unknown-order');
    expect(unknown).toEqual([
      expect.objectContaining({ endpoint: 'refund', path: 'order_id', index: 1, value: 'B' }),
    ]);
  });

  it('is served by the sandbox, sent in flow order, and remembered by the state across runs', async () => {
    const sandbox = await testSandbox({
      registry: withRefunds,
    });
    const early = await fetch(`${sandbox.url}/v2/order/refund`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify({ id: 'R-0', order_id: 'Z', value: 1 }),
    });
    expect(early.status).toBe(404);

    const stateDir = freshStateDir();
    const service = { baseUrl: sandbox.url, base: new URL(sandbox.url), apiKey: 'k' };
    const inputs = [
      { resource: refundResource, spec: memorySpec('refunds', [{ id: 'R-1', order_id: 'A', value: 5 }]) },
      { resource: resources.order, spec: memorySpec('orders', [{ id: 'A' }]) },
    ];
    const first = await checkAndSend(request(inputs, { service, stateDir }), deps());
    expect(first.report.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(first.exitCode).toBe(0);
    expect(first.report.summary).toMatchObject({ sent: 2, accepted: 2 });
    const held = (await (await fetch(`${sandbox.url}/_sandbox/orders/A`)).json()) as {
      updates: Record<string, unknown[]>;
    };
    expect(held.updates.refund).toEqual([{ id: 'R-1', order_id: 'A', value: 5 }]);

    const again = await checkAndSend(request(inputs, { service, stateDir }), deps());
    expect(again.report.summary).toMatchObject({ sent: 0, skipped: 2 });
  });

  const backends: [string, () => Promise<string> | string][] = [['SQLite', () => freshStateDir()]];
  if (postgres) backends.push(['PostgreSQL', () => postgres.database()]);
  else itWith('postgres')('has a table of its own in the PostgreSQL state', () => {});
  it.each(backends)(
    'has a table of its own in the %s state: a run remembers its facts there, a later run sees them',
    async (_name, location) => {
      const sandbox = await testSandbox({
        registry: withRefunds,
      });
      const stateDir = await location();
      const service = { baseUrl: sandbox.url, base: new URL(sandbox.url), apiKey: 'k' };
      const refunds = (value: number) => [
        { id: 'R-1', order_id: 'A', value },
        { id: 'R-2', order_id: 'A', value: 1 },
      ];
      const inputs = (value: number) => [
        { resource: resources.order, spec: memorySpec('orders', [{ id: 'A' }]) },
        { resource: refundResource, spec: memorySpec('refunds', refunds(value)) },
      ];
      const first = await checkAndSend(request(inputs(5), { service, stateDir }), deps());
      expect(first.report.summary).toMatchObject({ sent: 3, accepted: 3 });
      // A later run: a changed refund is sent and replaces its row; the state holds both refunds.
      const again = await checkAndSend(request(inputs(7), { service, stateDir }), deps());
      expect(again.report.summary).toMatchObject({ sent: 1, skipped: 2 });
      const later = await openState(stateDir, sandbox.url, { locking: false, resources: [refundResource] });
      try {
        expect(later.priorOrder('A')?.rows).toEqual({
          refunds: [
            { refund_id: 'R-1', value: '7' },
            { refund_id: 'R-2', value: '1' },
          ],
        });
        expect(later.priorOrder('B')).toBeNull();
      } finally {
        await later.close();
      }
    },
  );
});
