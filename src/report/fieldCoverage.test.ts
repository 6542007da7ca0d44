import { describe, expect, it } from 'vitest';
import { registry } from '../resources/registry.js';
import { isRecord } from '../schema/checks.js';
import { coverageFields, coverageOf, present } from './fieldCoverage.js';

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

  it('agrees with each path read as written, whichever list element carries a field', () => {
    const at = (value: unknown, path: string) =>
      path.split('.').reduce<unknown>((v, key) => (isRecord(v) ? v[key] : undefined), value);
    const asWritten = (record: Record<string, unknown>) =>
      coverageFields.order!.reduce((mask, { path }, i) => {
        const [list, rest] = path.split('[].');
        const items = at(record, list!);
        const carried =
          rest === undefined
            ? present(items)
            : Array.isArray(items) && items.some((element) => present(at(element, rest)));
        return carried ? mask | (1 << i) : mask;
      }, 0);
    const records = [
      {
        payments: [{ card: { last_four_digits: '1234' } }, { acquirer_id: 'A', card: { holder_name: 'X' } }],
      },
      {
        items: [null, 'x', { product: { seller: { id: 'S' } } }],
        deliveries: [{}, { deliverer: { id: 'D' } }],
      },
      { user: { address: { city: 'Y' }, creation_datetime: '2024-01-01' }, total_paid_value: 0, items: [] },
      { user: null, payments: {}, creation_datetime: '' },
    ];
    for (const record of records) expect(coverageOf('order', record)).toBe(asWritten(record));
  });

  it('has at most 31 fields per endpoint (a bit mask), for endpoints that exist', () => {
    for (const [endpoint, fields] of Object.entries(coverageFields)) {
      expect(registry.get(endpoint)).toBeDefined();
      expect(fields.length).toBeLessThanOrEqual(31);
    }
  });
});
