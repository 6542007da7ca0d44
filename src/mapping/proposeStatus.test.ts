import { describe, expect, it } from 'vitest';
import { statusValues } from './proposeStatus.js';

describe('statusValues', () => {
  it("maps Shopify's and a marketplace's words to the service's statuses, whatever their case", () => {
    expect(
      statusValues(['paid', 'Partially_Refunded', 'authorized', 'refunded', 'voided', 'paid']).values,
    ).toEqual([
      ['paid', 'approved'],
      ['partially_refunded', 'approved'],
      ['authorized', 'pending'],
      ['refunded', 'cancelled'],
      ['voided', 'cancelled'],
    ]);
    expect(statusValues(['delivered', 'canceled', 'processing', 'unavailable']).values).toEqual([
      ['delivered', 'approved'],
      ['canceled', 'cancelled'],
      ['processing', 'pending'],
      ['unavailable', 'cancelled'],
    ]);
  });
  it('keeps the words that mean no status yet and the unknown ones apart', () => {
    expect(statusValues(['created', 'approved', 'on_hold'])).toEqual({
      values: [['approved', 'approved']],
      none: ['created'],
      unknown: ['on_hold'],
    });
  });
});
