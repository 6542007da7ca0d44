import { describe, expect, it } from 'vitest';
import { registry } from '../resources/registry.js';
import { coverageFields, coverageOf } from './fieldCoverage.js';

const bit = (endpoint: string, path: string) => 1 << coverageFields.order!.findIndex((f) => f.path === path);

describe('coverageOf', () => {
  it('sets the bit of each field the record carries, non-empty, in a list element or nested', () => {
    const mask = coverageOf('order', {
      id: 'O1',
      user: { document: '123', email: '', address: {} },
      payments: [{ id: 'P1' }, { id: 'P2', card: { first_six_digits: '411111' } }],
      deliveries: [],
    });
    expect(mask).toBe(
      bit('order', 'user.document') |
        bit('order', 'payments') |
        bit('order', 'payments[].card.first_six_digits'),
    );
  });

  it('gives 0 for an endpoint without a list; nested fields of a value that is not an object are absent', () => {
    expect(coverageOf('refund', { id: 'x' })).toBe(0);
    expect(coverageOf('order', { user: 'a text', payments: 'not a list' })).toBe(bit('order', 'payments'));
  });

  it('has at most 31 fields per endpoint (a bit mask), for endpoints that exist', () => {
    for (const [endpoint, fields] of Object.entries(coverageFields)) {
      expect(registry.get(endpoint)).toBeDefined();
      expect(fields.length).toBeLessThanOrEqual(31);
    }
  });
});
