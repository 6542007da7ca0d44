import pg from 'pg';
import { afterAll, describe, expect } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../test/helpers/postgres.js';
import { registry } from '../resources/registry.js';
import { PgOutbox } from './pgOutbox.js';
import { initOutbox, outboxTable } from './pgOutboxSchema.js';
import { itWith } from '../../test/helpers/withPrerequisite.js';

// Started before the tests are collected, so that a missing server can skip them (never in CI).
const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());
const withPostgres = () => itWith('postgres');

/** An outbox holding `bodies` (as jsonb), read by a PgOutbox serving every bucket, bodies over `maxBytes` unread. */
async function outboxOf(bodies: unknown[], maxBytes: number): Promise<PgOutbox> {
  const url = await server!.database();
  const table = outboxTable('collect_outbox');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await initOutbox(client, table);
    for (const body of bodies)
      await client.query(`INSERT INTO collect_outbox (endpoint, body) VALUES ('status', $1)`, [
        JSON.stringify(body),
      ]);
  } finally {
    await client.end();
  }
  const outbox = await PgOutbox.open(url, table, registry, 'the test database', maxBytes);
  await outbox.rebalance(async () => undefined);
  return outbox;
}

/** A status body of about `size` bytes as jsonb's text. */
const body = (id: string, size: number) => ({ id, status: 'approved', note: 'x'.repeat(size - 50) });

describe('PgOutbox.pending', () => {
  withPostgres()('reads no more than about `bytes` of bodies, and always one event', async () => {
    const outbox = await outboxOf(
      [1, 2, 3, 4, 5].map((n) => body(`B-${n}`, 900)),
      10_000,
    );
    try {
      const page = await outbox.pending(100, new Set(), 2500);
      expect(page.map((event) => event.id)).toEqual([1, 2, 3]); // 0, 900 and 1,800 bytes read before each
      expect(page.every((event) => event.text.length > 800 && event.text.length <= 900)).toBe(true);
      expect((await outbox.pending(100, new Set([1, 2, 3]), 10)).map((event) => event.id)).toEqual([4]);
      expect((await outbox.pending(100)).map((event) => event.id)).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await outbox.close();
    }
  });

  withPostgres()('dead-letters a body over the limit unread, and one nested too deep', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 40; i++) deep = [deep];
    const outbox = await outboxOf(
      [body('BIG', 5000), { id: 'D', status: 'approved', deep }, body('OK', 200)],
      1000,
    );
    try {
      const [big, tooDeep, ok] = await outbox.pending(100, new Set(), 1500);
      expect(big).toMatchObject({ id: 1, text: '', body: undefined, problem: { code: 'record-too-large' } });
      expect(big!.problem!.message).toMatch(/is 4,9\d\d bytes long, over the limit of 1,000 bytes/);
      expect(tooDeep).toMatchObject({ id: 2, body: undefined, problem: { code: 'too-deep' } });
      expect(ok).toMatchObject({ id: 3, endpoint: 'status', body: { id: 'OK' } });
      expect(ok!.problem).toBeUndefined();
    } finally {
      await outbox.close();
    }
  });
});
