import { describe, expect, it } from 'vitest';
import { orderSchema, resources, validateRecord, type Order } from './index.js';

describe('the library surface', () => {
  it('exports schemas whose inferred types fit the records they accept', () => {
    const order: Order = orderSchema.parse({ id: 'O1', total_paid_value: 10 });
    expect(order.id).toBe('O1');
    expect(validateRecord(resources.status, { id: 'O1', status: 'paid' }, { now: new Date() })).toEqual([
      expect.objectContaining({ code: 'invalid-enum', path: 'status', hint: expect.any(String) }),
    ]);
  });
});
