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

describe('the card keys of payments (ordersByCard)', () => {
  it('finds the orders of each card key, each payment by its own card', async () => {
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
        // A payment with no card has no key to be found by.
        sent({ id: 'E', creation_datetime: '2024-04-03T10:00:00Z', payments: [{ id: 'E-P', value: 129.9 }] }),
      ],
      now,
    );
    const found = await store.ordersByCard([
      ['1808', '12990', '2024-04-03'],
      ['1808', '1000', '2024-04-02'],
      ['4242', '5550', '2024-04-03'],
      // The same key twice: each position answered.
      ['1808', '12990', '2024-04-03'],
    ]);
    expect(found.sort((a, b) => a.tuple - b.tuple || a.orderId.localeCompare(b.orderId))).toEqual([
      { tuple: 0, orderId: 'A' },
      { tuple: 0, orderId: 'B' },
      { tuple: 2, orderId: 'D' },
      { tuple: 3, orderId: 'A' },
      { tuple: 3, orderId: 'B' },
    ]);
    expect(await store.ordersByCard([])).toEqual([]);
    store.close();
  });

  it('keeps the last card given for a payment id that an order repeats', async () => {
    const store = SqliteState.open(null);
    const order = {
      id: 'R',
      creation_datetime: '2024-04-02T10:00:00Z',
      payments: [
        { id: 'P', value: 5 },
        { id: 'P', value: 6, card: { last_four_digits: '1111' } },
      ],
    };
    store.remember([sent(order)], now);
    expect(await store.ordersByCard([['1111', '600', '2024-04-02']])).toEqual([{ tuple: 0, orderId: 'R' }]);
    store.close();
  });

  it('keeps no index on the payments: a run that writes orders pays for none', async () => {
    const folder = tempDir('collect-cards-');
    const store = SqliteState.open(folder);
    const lock = await store.lock({ where: folder, waitMs: 0, command: 'collect order a.csv' });
    store.remember([sent(card('A', '1808', 129.9, '2024-04-03T10:00:00Z'))], now);
    await lock.release();
    store.close();
    const db = openDatabase(join(folder, 'dry-run.sqlite'));
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'order_payments'")
      .all() as { name: string }[];
    db.close();
    // SQLite's own index of the primary key only.
    expect(indexes.every((index) => index.name.startsWith('sqlite_autoindex'))).toBe(true);
  });
});
