import { describe, expect, it } from 'vitest';
import { contentHash } from '../flow/canonical.js';
import { learnedHash, PLAIN_HASHES } from './recordHash.js';

/** An order as an NDJSON line would give it, its keys in the writer's order (not sorted). */
function order(n: number): Record<string, unknown> {
  return {
    id: `ORD-${n}`,
    evaluate: n % 2 === 0,
    total_paid_value: n / 7,
    currency: 'BRL',
    coupon_names: n % 3 ? ['A', 'é"\\'] : [],
    user: { id: `C${n}`, name: `Ná\u2028me ${n}`, address: { street_name: 'Rua', zip_code: '0100' } },
    items: [{ quantity: n % 4, product: { sku: `S${n}`, categories: ['a', 'b'] } }],
  };
}

/** Records that leave the learned shape: other keys, key orders, nesting, lengths, values of other types. */
const others: unknown[] = [
  { ...order(1), extra: 1 },
  { user: { address: { zip_code: '1', street_name: 'x' }, id: 'C' }, id: 'O' },
  { ...order(2), items: [...(order(2).items as unknown[]), { quantity: 1 }] },
  { ...order(3), items: [] },
  { ...order(4), user: null },
  { ...order(5), user: { ...(order(5).user as object), custom_data: { '10': 1, '9': 2, b: [{}] } } },
  { ...order(6), total_paid_value: '12,30' },
  { ...order(7), coupon_names: [null, 1.5e300, -0] },
  JSON.parse('{"id":"P","__proto__":{"x":1},"user":{"id":"U"}}'),
  JSON.parse('{"1":"a","0":"b","id":"Q"}'),
  { ...order(8), id: undefined },
];

describe('learnedHash (the compiled twin of contentHash for decoded JSON records)', () => {
  it('gives contentHash for every record, before and after it compiles, of the learned shape or not', () => {
    const hashOf = learnedHash('order');
    for (let n = 0; n < PLAIN_HASHES + 500; n++)
      expect(hashOf(order(n))).toBe(contentHash('order', order(n)));
    for (const value of others)
      expect(hashOf(value as Record<string, unknown>)).toBe(contentHash('order', value));
  });

  it('gives contentHash when the first records have no one shape (no compiled hash)', () => {
    const hashOf = learnedHash('order');
    const records = Array.from({ length: PLAIN_HASHES + 100 }, (_, n) =>
      n % 2 ? { id: `X${n}`, a: { b: n } } : { id: `Y${n}`, a: [n] },
    );
    for (const value of records) expect(hashOf(value)).toBe(contentHash('order', value));
  });
});
