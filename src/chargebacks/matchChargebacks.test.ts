import { describe, expect, it } from 'vitest';
import type { Issue } from '../core/issue.js';
import type { ChargebackRow } from './chargebackRow.js';
import { matchChargebacks, type MatchSources, type OrderFacts, type Owner } from './matchChargebacks.js';
import { shippedTable } from './reasonCategories.js';

const owners: Record<string, Owner[]> = {
  'TX-1': [{ orderId: 'O-1', paymentId: 'P-1', source: 'state' }],
  'TX-2': [
    { orderId: 'O-2', paymentId: 'P-2', source: 'state' },
    { orderId: 'O-2', paymentId: 'P-2b', source: 'orders' },
  ],
  'TX-D': [
    { orderId: 'O-5', paymentId: null, source: 'state' },
    { orderId: 'O-6', paymentId: null, source: 'orders' },
  ],
  'TX-R': [{ orderId: 'O-R', paymentId: 'P', source: 'state' }],
  'TX-M': [{ orderId: 'O-M', paymentId: 'P', source: 'state' }],
};
const facts: Record<string, OrderFacts> = {
  'O-1': { decision: 'approve', fraudTypes: [] },
  'O-2': { decision: null, fraudTypes: ['manual_analysis'] },
  'O-R': { decision: 'reject', fraudTypes: [] },
  'O-M': { decision: 'approve', fraudTypes: ['chargeback'] },
};
const sources: MatchSources = {
  owners: (id) => owners[id] ?? [],
  order: (id) => facts[id] ?? null,
  knowsOrders: true,
  orderKnown: (id) => id in facts,
  ordersByKey: () => [],
};

const at = (line: number, row: ChargebackRow | undefined, issues: Issue[] = []) => ({
  file: 'r.csv',
  index: line - 2,
  line,
  row,
  issues,
});
const options = { table: shippedTable, onlyFraud: false };
const outcomesOf = (rows: Parameters<typeof matchChargebacks>[0], onlyFraud = false) =>
  matchChargebacks(rows, sources, { ...options, onlyFraud }).verdicts.map((v) => [
    v.outcome,
    v.orderId,
    v.issues.map((i) => i.code).join(),
  ]);

describe('matchChargebacks', () => {
  it('gives each row one of the outcomes, with its issue code', () => {
    expect(
      outcomesOf([
        at(2, { acquirer_id: 'TX-1', network: 'visa', reason_code: '10.4' }),
        at(3, { acquirer_id: 'TX-404' }),
        at(4, { acquirer_id: 'TX-D' }),
        at(5, { acquirer_id: 'TX-R' }),
        at(6, { acquirer_id: 'TX-M' }),
        at(7, undefined, [{ severity: 'error', code: 'missing-id', path: '', message: 'm' }]),
        at(8, { order_id: 'O-2' }),
        at(9, { order_id: 'O-unknown' }),
      ]),
    ).toEqual([
      ['matched', 'O-1', ''],
      ['unmatched', undefined, 'unknown-acquirer-id'],
      ['ambiguous', undefined, 'ambiguous-acquirer-id'],
      ['refused', 'O-R', 'fraud-after-service-decline'],
      ['already-marked', 'O-M', ''],
      ['invalid', undefined, 'missing-id'],
      ['matched', 'O-2', ''],
      ['unmatched', 'O-unknown', 'unknown-order-id'],
    ]);
  });

  it('takes an acquirer id found twice for the same order as one order, not an ambiguity', () => {
    expect(outcomesOf([at(2, { acquirer_id: 'TX-2' })])).toEqual([['matched', 'O-2', '']]);
  });

  it('calls a row whose order_id contradicts its acquirer id ambiguous', () => {
    expect(outcomesOf([at(2, { acquirer_id: 'TX-1', order_id: 'O-2' })])).toEqual([
      ['ambiguous', 'O-2', 'ambiguous-acquirer-id'],
    ]);
  });

  it('falls back on the order_id of a row whose acquirer id is unknown', () => {
    expect(outcomesOf([at(2, { acquirer_id: 'TX-404', order_id: 'O-1' })])).toEqual([['matched', 'O-1', '']]);
  });

  it('makes one mark per order, whatever the number of its rows, in report order', () => {
    const result = matchChargebacks(
      [
        at(2, { acquirer_id: 'TX-1', network: 'visa', reason_code: '10.4', amount: 5 }),
        at(3, { acquirer_id: 'TX-2' }),
        at(4, { order_id: 'O-1', network: 'mastercard', reason_code: '4837' }),
      ],
      sources,
      options,
    );
    expect(result.marks.map((m) => [m.orderId, m.rows])).toEqual([
      ['O-1', [0, 2]],
      ['O-2', [1]],
    ]);
    expect(result.marks[0]!.body.fraud_comment).toBe(
      '2 chargebacks: visa 10.4 (fraud: other fraud: card-absent environment), 5; mastercard 4837 ' +
        '(fraud: no cardholder authorisation)',
    );
    expect(result.counts.matched).toBe(3);
  });

  it('with --only-fraud, skips rows of another or no known category as not-fraud', () => {
    expect(
      outcomesOf(
        [
          at(2, { acquirer_id: 'TX-1', network: 'visa', reason_code: '13.1' }),
          at(3, { acquirer_id: 'TX-2', network: 'elo', reason_code: '71' }),
          at(4, { order_id: 'O-1', network: 'visa', reason_code: '10.4' }),
        ],
        true,
      ),
    ).toEqual([
      ['not-fraud', 'O-1', 'not-fraud'],
      ['not-fraud', 'O-2', 'not-fraud'],
      ['matched', 'O-1', ''],
    ]);
  });

  it('never matches through a row that has errors, and keeps its warnings on a matched one', () => {
    const warning: Issue = { severity: 'warning', code: 'unknown-field', path: 'shop', message: 'm' };
    expect(outcomesOf([at(2, { acquirer_id: 'TX-1' }, [warning])])).toEqual([
      ['matched', 'O-1', 'unknown-field'],
    ]);
  });
});
