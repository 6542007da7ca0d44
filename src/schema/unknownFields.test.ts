import { describe, expect, it } from 'vitest';
import { registry } from '../resources/registry.js';
import { unknownFields } from './unknownFields.js';

const order = registry.get('order')!.schema;

const found = (value: unknown) => unknownFields(order, value).map((issue) => [issue.path, issue.hint]);

describe('unknownFields', () => {
  it('finds a misspelt field at any depth, in lists too, with its whole path and a guess', () => {
    expect(
      found({
        id: 'O-1',
        total_paid_valeu: 1,
        user: { id: 'U', address: { stret_name: 'x', city: 'y' } },
        items: [{ quantity: 1 }, { quantity: 2, product: { sku: 'S', titel: 'T' } }],
      }),
    ).toEqual([
      ['total_paid_valeu', 'did you mean total_paid_value?'],
      ['user.address.stret_name', 'did you mean street_name?'],
      ['items.1.product.titel', 'did you mean title?'],
    ]);
  });

  it('finds nothing in a record of known fields, nor inside a free-form field', () => {
    expect(
      found({ id: 'O-1', user: { id: 'U', address: { city: 'y' } }, custom_data: { anything: { at: 1 } } }),
    ).toEqual([]);
  });

  it('does not walk into values of the wrong type', () => {
    expect(
      found({ id: 'O-1', user: 'not an object', items: { not: 'a list' }, payments: [null, 3] }),
    ).toEqual([]);
  });
});
