import pg from 'pg';
import { afterAll, describe, expect } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../../test/helpers/postgres.js';
import { migratePostgres } from './pgSchema.js';
import { PgWriteGroup, writeGroups } from './pgWrites.js';
import { itWith } from '../../../test/helpers/withPrerequisite.js';

// Started before the tests are collected, so that a missing server can skip them (never in CI).
const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());
const withPostgres = () => itWith('postgres');

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: await server!.database() });
  await c.connect();
  await migratePostgres(c, 'test');
  return c;
}

const group = (at = '2025-01-01T00:00:00.000Z') => new PgWriteGroup('ns', at);
const order = (orderId: string, status: string | null = null) => ({
  orderId,
  hash: `h-${orderId}`,
  evaluate: false,
  status,
});

describe('groups of PostgreSQL state writes written together', () => {
  withPostgres()('give what writing them one after the other gives, in one transaction', async () => {
    const c = await client();
    const first = group('2025-01-01T00:00:00.000Z');
    first.writes.createOrder(order('A', 'pending'));
    first.writes.addPayment('A', 'P1', 'X');
    first.journalWrite('h1', 'order', 'A', 'accepted');
    const second = group('2025-01-01T00:00:01.000Z');
    second.writes.setLastStatus('A', 'approved');
    second.writes.setUpdatedAcquirer('A', 'P1', 'Y');
    second.journalWrite('h1', 'order', 'A', 'failed');
    second.journalWrite('h2', 'status', 'A', 'accepted');
    const third = group('2025-01-01T00:00:02.000Z');
    third.writes.setLastStatus('A', 'declined');
    await writeGroups(c, [first, second, third]);
    expect((await c.query('SELECT order_id, last_status FROM collect_orders')).rows).toEqual([
      { order_id: 'A', last_status: 'declined' },
    ]);
    expect((await c.query('SELECT updated_acquirer_id FROM collect_order_payments')).rows).toEqual([
      { updated_acquirer_id: 'Y' },
    ]);
    expect(
      (
        await c.query(
          "SELECT hash, outcome, to_char(at AT TIME ZONE 'UTC', 'SS') AS s FROM collect_journal ORDER BY hash",
        )
      ).rows,
    ).toEqual([
      { hash: 'h1', outcome: 'failed', s: '01' },
      { hash: 'h2', outcome: 'accepted', s: '01' },
    ]);
    await c.end();
  });
  withPostgres()(
    'keep an update of an order not yet created from touching it when a later group creates it',
    async () => {
      const c = await client();
      const early = group();
      early.writes.setLastStatus('B', 'approved');
      early.writes.setDecision('B', 'reject');
      const later = group();
      later.writes.createOrder(order('B', 'pending'));
      await writeGroups(c, [early, later]);
      expect((await c.query('SELECT last_status, decision FROM collect_orders')).rows).toEqual([
        { last_status: 'pending', decision: null },
      ]);
      await c.end();
    },
  );
  withPostgres()('write nothing when one statement fails', async () => {
    const c = await client();
    const good = group();
    good.writes.createOrder(order('C'));
    const bad = group('not a time');
    bad.journalWrite('h3', 'order', 'C', 'accepted');
    await expect(writeGroups(c, [good, bad])).rejects.toThrow();
    expect((await c.query('SELECT count(*)::int AS n FROM collect_orders')).rows).toEqual([{ n: 0 }]);
    await c.end();
  });
});
