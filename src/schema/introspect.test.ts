import { describe, expect, it } from 'vitest';
import { orderSchema } from '../resources/order/schema.js';
import { deliverySchema } from '../resources/delivery/index.js';
import { fieldKindAt } from './introspect.js';

describe('fieldKindAt', () => {
  it('follows nested objects and array positions of the order schema', () => {
    expect(fieldKindAt(orderSchema, ['payments', '0', 'value'])).toBe('number');
    expect(fieldKindAt(orderSchema, ['payments', '0', 'installments'])).toBe('integer');
    expect(fieldKindAt(orderSchema, ['payments', '0', 'card', 'first_six_digits'])).toBe('string');
    expect(fieldKindAt(orderSchema, ['evaluate'])).toBe('boolean');
    expect(fieldKindAt(orderSchema, ['coupon_names'])).toBe('string-array');
    expect(fieldKindAt(orderSchema, ['items', '0', 'product', 'seller', 'categories'])).toBe('string-array');
    expect(fieldKindAt(orderSchema, ['custom_data'])).toBe('json');
    expect(fieldKindAt(deliverySchema, ['deliverer', 'address', 'latitude'])).toBe('number');
    expect(fieldKindAt(deliverySchema, ['scheduled'])).toBe('boolean');
  });

  it('calls paths outside the schema unknown', () => {
    expect(fieldKindAt(orderSchema, ['total_paid_valeu'])).toBe('unknown');
    expect(fieldKindAt(orderSchema, ['payments', 'x', 'value'])).toBe('unknown');
    expect(fieldKindAt(orderSchema, ['custom_data', 'channel'])).toBe('unknown');
  });
});
