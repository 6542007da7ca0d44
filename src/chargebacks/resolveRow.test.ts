import { describe, expect, it } from 'vitest';
import type { ChargebackRow } from './chargebackRow.js';
import { exportedPayments } from './exportedPayments.js';
import type { MatchSources, Owner } from './matchSources.js';
import { exportedKeys, keyOf } from './ordersExport.js';
import { resolveRow } from './resolveRow.js';

/** Sources over a list of orders in the service's shape, indexed as an --orders export is. */
function sourcesOf(orders: readonly Record<string, unknown>[]): MatchSources {
  const owners = new Map<string, Owner[]>();
  const keyed = new Map<string, Set<string>>();
  const known = new Set<string>();
  for (const order of orders)
    for (const payment of exportedPayments(order)) {
      known.add(payment.order_id);
      if (payment.acquirer_id)
        owners.set(payment.acquirer_id, [
          ...(owners.get(payment.acquirer_id) ?? []),
          { orderId: payment.order_id, paymentId: payment.payment_id, source: 'orders' },
        ]);
      for (const key of exportedKeys(payment))
        keyed.set(key, (keyed.get(key) ?? new Set()).add(payment.order_id));
    }
  return {
    owners: (id) => owners.get(id) ?? [],
    order: () => null,
    knowsOrders: true,
    orderKnown: (id) => known.has(id),
    ordersByKey: (kind, key) => [...(keyed.get(keyOf(kind, key)) ?? [])],
  };
}

const order = (id: string, payment: Record<string, unknown>, created = '2024-04-02T12:00:00Z') => ({
  id,
  creation_datetime: created,
  payments: [{ id: `${id}-P`, ...payment }],
});

const orders = [
  order('O-ACQ', { acquirer_id: 'TX-1', value: 10, card: { last_four_digits: '1111' } }),
  order('O-ARN', { value: 20, custom_data: { arn: '74537604221431003881865' } }),
  order('O-CARD', { value: 30, card: { last_four_digits: '2222' } }),
  order('O-AUTH', { custom_data: { authorization_code: 'AB12', nsu: '000777', sale_date: '2024-04-02' } }),
  order('O-TERM', {
    custom_data: { authorization_code: '555', terminal_id: 'POS-9', sale_date: '2024-04-02' },
  }),
  // Two orders sharing an ARN, a card key and an authorisation key: never a guess between them.
  order('O-TWIN-1', { value: 40, card: { last_four_digits: '3333' }, custom_data: { arn: '999' } }),
  order('O-TWIN-2', { value: 40, card: { last_four_digits: '3333' }, custom_data: { arn: '0999' } }),
];
const sources = sourcesOf(orders);
const resolve = (row: ChargebackRow) => {
  const r = resolveRow(row, sources);
  return 'orderId' in r ? [r.orderId, r.matchedBy] : [r.outcome, r.issue.code];
};

describe('the match cascade (resolveRow)', () => {
  it('finds an order by each key alone', () => {
    expect(resolve({ acquirer_id: 'TX-1' })).toEqual(['O-ACQ', 'acquirer_id']);
    expect(resolve({ order_id: 'O-CARD' })).toEqual(['O-CARD', 'order_id']);
    expect(resolve({ arn: '74537604221431003881865' })).toEqual(['O-ARN', 'arn']);
    expect(resolve({ card_last_four: '2222', amount: 30, sale_date: '2024-04-02' })).toEqual([
      'O-CARD',
      'composite',
    ]);
    expect(resolve({ authorization_code: 'ab12', nsu: '777', sale_date: '2024-04-02' })).toEqual([
      'O-AUTH',
      'composite',
    ]);
    expect(resolve({ authorization_code: '00555', terminal_id: 'pos-9', sale_date: '2024-04-01' })).toEqual([
      'O-TERM',
      'composite',
    ]);
  });

  it('takes the keys in order: the first that finds one order wins', () => {
    // Each row's later keys name another order: the earlier key decides.
    expect(resolve({ acquirer_id: 'TX-1', arn: '74537604221431003881865' })).toEqual([
      'O-ACQ',
      'acquirer_id',
    ]);
    expect(
      resolve({ order_id: 'O-ARN', card_last_four: '2222', amount: 30, sale_date: '2024-04-02' }),
    ).toEqual(['O-ARN', 'order_id']);
    expect(
      resolve({
        arn: '74537604221431003881865',
        card_last_four: '2222',
        amount: 30,
        sale_date: '2024-04-02',
      }),
    ).toEqual(['O-ARN', 'arn']);
    // A key that finds nothing passes to the next.
    expect(resolve({ acquirer_id: 'TX-404', order_id: 'O-404', arn: '74537604221431003881865' })).toEqual([
      'O-ARN',
      'arn',
    ]);
    expect(
      resolve({
        arn: '1',
        card_last_four: '9999',
        amount: 30,
        sale_date: '2024-04-02',
        authorization_code: 'AB12',
        nsu: '777',
      }),
    ).toEqual(['O-AUTH', 'composite']);
  });

  it('stops at a key that finds two orders, even when a later key would find one', () => {
    expect(resolve({ arn: '999', card_last_four: '2222', amount: 30, sale_date: '2024-04-02' })).toEqual([
      'ambiguous',
      'ambiguous-arn',
    ]);
    expect(
      resolve({
        card_last_four: '3333',
        amount: 40,
        sale_date: '2024-04-02',
        authorization_code: 'AB12',
        nsu: '777',
      }),
    ).toEqual(['ambiguous', 'ambiguous-composite']);
  });

  it('matches a sale date one day either side of the order date, not two', () => {
    const card = { card_last_four: '2222', amount: 30 };
    expect(resolve({ ...card, sale_date: '2024-04-01' })).toEqual(['O-CARD', 'composite']);
    expect(resolve({ ...card, sale_date: '2024-04-03' })).toEqual(['O-CARD', 'composite']);
    expect(resolve({ ...card, sale_date: '2024-03-31' })).toEqual(['unmatched', 'unknown-composite']);
    expect(resolve({ ...card, sale_date: '2024-04-04' })).toEqual(['unmatched', 'unknown-composite']);
    const auth = { authorization_code: 'AB12', nsu: '777' };
    expect(resolve({ ...auth, sale_date: '2024-04-03 23:59:59' })).toEqual(['O-AUTH', 'composite']);
    expect(resolve({ ...auth, sale_date: '2024-04-04' })).toEqual(['unmatched', 'unknown-composite']);
  });

  it('compares the creation date in UTC: 23:30 at -03:00 is the next day', () => {
    const late = sourcesOf([
      order('O-LATE', { value: 5, card: { last_four_digits: '4444' } }, '2024-04-02T23:30:00-03:00'),
    ]);
    const at = (sale_date: string) => resolveRow({ card_last_four: '4444', amount: 5, sale_date }, late);
    expect(at('2024-04-04')).toMatchObject({ orderId: 'O-LATE' });
    expect(at('2024-04-01')).toMatchObject({ outcome: 'unmatched' });
  });

  it('needs the amount to the cent, and a composite key whole', () => {
    expect(resolve({ card_last_four: '2222', amount: 30.01, sale_date: '2024-04-02' })).toEqual([
      'unmatched',
      'unknown-composite',
    ]);
    expect(resolve({ card_last_four: '2222', sale_amount: 30, amount: 12, sale_date: '2024-04-02' })).toEqual(
      ['O-CARD', 'composite'],
    );
    expect(resolve({ card_last_four: '2222', amount: 30, arn: '5' })).toEqual(['unmatched', 'unknown-arn']);
  });

  it('names the first key the row had when none found an order', () => {
    expect(resolve({ acquirer_id: 'TX-404', arn: '5' })).toEqual(['unmatched', 'unknown-acquirer-id']);
    expect(resolve({ order_id: 'O-404', arn: '5' })).toEqual(['unmatched', 'unknown-order-id']);
    expect(resolve({ acquirer_id: 'N/A' })).toEqual(['unmatched', 'missing-id']);
  });
});
