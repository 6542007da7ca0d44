import { describe, expect, it } from 'vitest';
import { pairsOf } from './ordersExport.js';

describe('pairsOf (an orders export)', () => {
  it('reads order_id + acquirer_id, or an order with its payments', () => {
    expect(pairsOf({ order_id: 'O', acquirer_id: 'A', x: 1 })).toEqual([
      { orderId: 'O', acquirerId: 'A', paymentId: null },
    ]);
    expect(pairsOf({ id: 'O', payments: [{ id: 'P1', acquirer_id: 'A1' }, { id: 'P2' }, 'x'] })).toEqual([
      { orderId: 'O', acquirerId: 'A1', paymentId: 'P1' },
    ]);
    expect(pairsOf({ order_id: 'O' })).toEqual([]);
    expect(pairsOf(null)).toEqual([]);
  });
});
