import { describe, expect, it } from 'vitest';
import { priorOrderOf, type PriorRow } from './priorOrder.js';

describe('priorOrderOf', () => {
  it(
    'gathers an order, its payments, deliveries and fraud marks, a loaded reject winning over an ' +
      'answered approve',
    () => {
      const rows: PriorRow[] = [
        [0, Buffer.from('ab12', 'hex'), 1, 'approve', 'approved'],
        [1, 'P1', 'ACQ', null, null],
        [2, 'D1', null, null, null],
        [3, 'chargeback', null, null, null],
      ];
      expect(priorOrderOf(rows, 'reject')).toEqual({
        created: true,
        hash: 'ab12',
        evaluate: true,
        decision: 'reject',
        lastStatus: 'approved',
        payments: { P1: 'ACQ' },
        deliveryIds: ['D1'],
        fraudTypes: ['chargeback'],
      });
    },
  );
  it('knows an order it never saw created only by its fraud marks or a loaded decision, and nothing else', () => {
    expect(priorOrderOf([[3, 'chargeback', null, null, null]], undefined)).toMatchObject({
      created: false,
      fraudTypes: ['chargeback'],
    });
    expect(priorOrderOf([], 'approve')).toMatchObject({ created: false, decision: 'approve' });
    expect(priorOrderOf([], undefined)).toBeNull();
  });
});
