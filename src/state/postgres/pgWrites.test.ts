import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../../test/helpers/postgres.js';
import { migratePostgres } from './pgSchema.js';
import { PgWriteGroup, writeGroups } from './pgWrites.js';

// Started before the tests are collected, so that a missing server can skip them (never in CI).
const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());
const withPostgres = () => (server ? it : it.skip);

async function client(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: await server!.database() });
  await c.connect();
  await migratePostgres(c, 'test');
  return c;
}

/** Every table's rows, in a fixed order; one query at a time (a query sent to a busy client is deprecated in pg 8, gone in pg 9). */
async function dump(c: pg.Client): Promise<unknown[][]> {
  const tables: unknown[][] = [];
  for (const table of ['collect_orders', 'collect_order_payments', 'collect_order_deliveries', 'collect_fraud_marks', 'collect_journal', 'collect_decisions']) {
    tables.push((await c.query(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4`)).rows);
  }
  return tables;
}

const group = (at = '2025-01-01T00:00:00.000Z') => new PgWriteGroup('ns', at);
const order = (orderId: string, status: string | null = null) => ({ orderId, hash: `h-${orderId}`, evaluate: false, status });

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
    expect((await c.query('SELECT order_id, last_status FROM collect_orders')).rows).toEqual([{ order_id: 'A', last_status: 'declined' }]);
    expect((await c.query('SELECT updated_acquirer_id FROM collect_order_payments')).rows).toEqual([{ updated_acquirer_id: 'Y' }]);
    expect((await c.query("SELECT hash, outcome, to_char(at AT TIME ZONE 'UTC', 'SS') AS s FROM collect_journal ORDER BY hash")).rows).toEqual([
      { hash: 'h1', outcome: 'failed', s: '01' }, { hash: 'h2', outcome: 'accepted', s: '01' },
    ]);
    await c.end();
  });
  withPostgres()('keep an update of an order not yet created from touching it when a later group creates it', async () => {
    const c = await client();
    const early = group();
    early.writes.setLastStatus('B', 'approved');
    early.writes.setDecision('B', 'reject');
    const later = group();
    later.writes.createOrder(order('B', 'pending'));
    await writeGroups(c, [early, later]);
    expect((await c.query('SELECT last_status, decision FROM collect_orders')).rows).toEqual([{ last_status: 'pending', decision: null }]);
    await c.end();
  });
  withPostgres()('as one prepared statement give what the statements one after the other give', async () => {
    const scenario = () => {
      const before = group('2025-01-01T00:00:00.000Z');
      before.writes.createOrder(order('OLD', 'pending'));
      before.writes.addPayment('OLD', 'P1', 'X');
      before.journalWrite('h1', 'order', 'OLD', 'failed');
      before.loadDecision('OLD', 'approve', 'file.csv');
      const next = group('2025-01-01T00:00:05.000Z');
      next.writes.createOrder(order('NEW', 'pending'));
      next.writes.createOrder(order('OLD', 'other'));
      next.writes.setDecision('NEW', 'reject');
      next.writes.setLastStatus('NEW', 'declined');
      next.writes.setLastStatus('OLD', 'approved');
      next.writes.setDecision('OLD', 'approve');
      next.writes.addPayment('NEW', 'P2', null);
      next.writes.addPayment('OLD', 'P1', 'Z');
      next.writes.setUpdatedAcquirer('NEW', 'P2', 'Y');
      next.writes.setUpdatedAcquirer('OLD', 'P1', 'W');
      next.writes.addDelivery('NEW', 'D1');
      next.writes.addFraudMark('GONE', 'chargeback');
      next.journalWrite('h1', 'order', 'OLD', 'accepted');
      next.journalWrite("h'2", 'status', 'NEW', 'rejected');
      next.loadDecision('OLD', 'reject', 'other "file".csv');
      return [before, next];
    };
    const prepared = await client();
    for (const g of scenario()) await writeGroups(prepared, [g]);
    const oneByOne = await client();
    for (const g of scenario()) await oneByOne.query(`BEGIN; ${g.statements(oneByOne).join(';\n')}; COMMIT`);
    const [a, b] = [await dump(prepared), await dump(oneByOne)];
    expect(a).toEqual(b);
    expect(a[0]).toContainEqual(expect.objectContaining({ order_id: 'NEW', decision: 'reject', last_status: 'declined' }));
    expect(a[0]).toContainEqual(expect.objectContaining({ order_id: 'OLD', decision: 'approve', last_status: 'approved' }));
    await prepared.end();
    await oneByOne.end();
  });
  withPostgres()('as a statement of only the kinds a group holds give what the statements give, kind by kind', async () => {
    const groups = (): PgWriteGroup[] => {
      const kinds: ((g: PgWriteGroup) => void)[] = [
        (g) => g.writes.createOrder(order('K', 'pending')),
        (g) => g.writes.setLastStatus('K', 'approved'),
        (g) => g.writes.addPayment('K', 'P1', 'X'),
        (g) => g.writes.setUpdatedAcquirer('K', 'P1', 'Y'),
        (g) => g.writes.addDelivery('K', 'D1'),
        (g) => g.writes.addFraudMark('K', 'chargeback'),
        (g) => g.loadDecision('K', 'reject', 'file.csv'),
        (g) => g.journalWrite('h9', 'status', 'K', 'accepted'),
      ];
      return kinds.map((write) => {
        const g = group();
        write(g);
        return g;
      });
    };
    const prepared = await client();
    for (const g of groups()) {
      expect(g.statement()!.text.match(/ AS \(/g)!.length, 'CTEs of a group of one kind').toBeLessThanOrEqual(4);
      await writeGroups(prepared, [g]);
    }
    const oneByOne = await client();
    for (const g of groups()) await oneByOne.query(`BEGIN; ${g.statements(oneByOne).join(';\n')}; COMMIT`);
    const tables = await dump(prepared);
    expect(tables).toEqual(await dump(oneByOne));
    expect(tables.every((rows) => rows.length === 1)).toBe(true);
    await prepared.end();
    await oneByOne.end();
  });
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
