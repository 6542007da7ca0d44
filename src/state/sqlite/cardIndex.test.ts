import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../platform/sqlite.js';
import { resources } from '../../resources/registry.js';
import { SqliteState } from './sqliteState.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

const now = new Date('2025-01-01T00:00:00Z');
const sent = (record: Record<string, unknown>) => ({
  resource: resources.order,
  hash: `h-${String(record.id)}`,
  outcome: 'accepted' as const,
  facts: resources.order.facts(record)!,
});
const card = (id: string, lastFour: string, value: number, created: string) => ({
  id,
  creation_datetime: created,
  payments: [{ id: `${id}-P`, value, card: { last_four_digits: lastFour } }],
});

describe('the card keys of payments (order_payments_by_card)', () => {
  it('finds the orders of each card key through its index', async () => {
    const store = SqliteState.open(null);
    store.remember(
      [
        sent(card('A', '1808', 129.9, '2024-04-02T23:30:00-03:00')),
        sent(card('B', '1808', 129.9, '2024-04-03T10:00:00Z')),
        sent(card('C', '1808', 10, '2024-04-03T10:00:00Z')),
        // One payment with no value: the order's total is the payment's.
        sent({
          id: 'D',
          creation_datetime: '2024-04-03T10:00:00Z',
          total_paid_value: 55.5,
          payments: [{ id: 'D-P', card: { last_four_digits: '4242' } }],
        }),
      ],
      now,
    );
    const found = await store.ordersByCard([
      ['1808', '12990', '2024-04-03'],
      ['1808', '1000', '2024-04-02'],
      ['4242', '5550', '2024-04-03'],
    ]);
    expect(found.sort((a, b) => a.tuple - b.tuple || a.orderId.localeCompare(b.orderId))).toEqual([
      { tuple: 0, orderId: 'A' },
      { tuple: 0, orderId: 'B' },
      { tuple: 2, orderId: 'D' },
    ]);
    const plan = store.database
      .prepare(
        "EXPLAIN QUERY PLAN SELECT DISTINCT order_id FROM order_payments WHERE last_four = '1' AND " +
          "value_cents = '1' AND sale_date = '1'",
      )
      .all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join()).toContain('order_payments_by_card');
    store.close();
  });

  it('is made once a run that filled an empty state released its lock', async () => {
    const folder = tempDir('collect-cards-');
    SqliteState.open(folder).close();
    const names = () => {
      const db = openDatabase(join(folder, 'dry-run.sqlite'));
      const found = db.prepare("SELECT name FROM sqlite_master WHERE name = 'order_payments_by_card'").all();
      db.close();
      return found;
    };
    expect(names()).toEqual([]);
    const store = SqliteState.open(folder);
    const lock = await store.lock({ where: folder, waitMs: 0, command: 'collect order a.csv' });
    // The run fills the empty table unindexed: one sorted index build at the end, not an insert per row.
    store.remember([sent(card('A', '1808', 129.9, '2024-04-03T10:00:00Z'))], now);
    expect(names()).toEqual([]);
    await lock.release();
    store.close();
    expect(names()).toEqual([{ name: 'order_payments_by_card' }]);
  });

  it('is made at once when a run opens a state holding payments unindexed (as a killed run leaves it)', () => {
    const folder = tempDir('collect-cards-');
    const writer = SqliteState.open(folder);
    writer.remember([sent(card('A', '1808', 129.9, '2024-04-03T10:00:00Z'))], now);
    writer.close();
    const db = openDatabase(join(folder, 'dry-run.sqlite'));
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'order_payments_by_card'").all()).toEqual(
      [],
    );
    db.close();
    const reader = SqliteState.open(folder);
    const plan = reader.database
      .prepare(
        "EXPLAIN QUERY PLAN SELECT DISTINCT order_id FROM order_payments WHERE last_four = '1' AND " +
          "value_cents = '1' AND sale_date = '1'",
      )
      .all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join()).toContain('order_payments_by_card');
    reader.close();
  });
});
