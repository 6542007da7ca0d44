import { describe, expect, it } from 'vitest';
import { proposeZone } from './proposeZone.js';

const orders = (times: string[], states: string[]) => [
  {
    file: 'orders.csv',
    header: ['order_id', 'order_purchase_timestamp'],
    rows: times.map((time, i) => [`A${i}`, time]),
  },
  {
    file: 'customers.csv',
    header: ['customer_id', 'customer_state'],
    rows: states.map((s, i) => [`C${i}`, s]),
  },
];

describe('proposeZone', () => {
  it('proposes São Paulo and BRL for local times beside Brazilian states, to confirm', () => {
    expect(proposeZone(orders(['10/2/2017 10:56'], ['SP', 'BA']))).toMatchObject({
      zone: 'America/Sao_Paulo',
      currency: 'BRL',
    });
  });
  it('needs no zone when every time has its offset, and guesses none from other states', () => {
    expect(proposeZone(orders(['2025-05-11 09:55:16 -0400'], ['SP'])).zone).toBe('UTC');
    const elsewhere = proposeZone(orders(['10/2/2017 10:56'], ['CA', 'NY']));
    expect(elsewhere).toEqual({ zone: 'UTC', reason: expect.stringContaining('set the') });
  });
  it('keeps the zone given', () => {
    expect(proposeZone(orders(['10/2/2017 10:56'], ['SP']), 'Europe/Lisbon').zone).toBe('Europe/Lisbon');
  });
});
