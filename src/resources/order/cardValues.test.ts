import { describe, expect, it } from 'vitest';
import type { CardKey, StateWrites } from '../resource.js';
import { cents, utcDate } from './cardValues.js';
import { orderFacts, rememberOrder } from './facts.js';

describe('the card keys an order remembers on its payments', () => {
  it('keeps amounts to the cent and the creation date in UTC', () => {
    expect([cents(129.9), cents(0.1 + 0.2), cents(10), cents('10'), cents(Number.NaN)]).toEqual([
      '12990',
      '30',
      '1000',
      null,
      null,
    ]);
    expect([utcDate('2024-04-02T23:30:00-03:00'), utcDate('2024-04-02T10:00:00Z'), utcDate('x')]).toEqual([
      '2024-04-03',
      '2024-04-02',
      null,
    ]);
  });

  it('reads the date of a UTC time as the time parsed and printed in UTC would, rolled-over days included', () => {
    const printed = (text: string) => new Date(Date.parse(text)).toISOString().slice(0, 10);
    const times = [
      '2024-02-28T23:59:59Z',
      '2024-02-29T10:00Z',
      '2023-02-29T10:00:00Z',
      '2024-04-31T00:00:00Z',
    ];
    times.push(
      '2024-01-01T24:00:00Z',
      '2024-12-31T23:59:59.999Z',
      '0001-01-01T00:00:00Z',
      '2024-06-15T12:00:00.5Z',
    );
    for (const time of times) expect(utcDate(time)).toBe(printed(time));
    expect([utcDate('2024-13-01T00:00:00Z'), utcDate('2024-01-01T23:60:00Z')]).toEqual([null, null]);
  });

  it('has a row per payment with a card, a value (or the total of a lone payment) and a creation time', () => {
    const rows = (record: Record<string, unknown>) => {
      const cards: [string, CardKey][] = [];
      const writes = { createOrder: () => undefined, addDelivery: () => undefined } as unknown as StateWrites;
      writes.addPayment = (_order, paymentId, _acquirer, card) =>
        void (card && cards.push([paymentId, card]));
      rememberOrder(orderFacts(record)!, writes, 'h');
      return cards.map(([paymentId, card]) => [paymentId, ...card]);
    };
    const created = '2024-04-02T10:00:00Z';
    expect(
      rows({
        id: 'O',
        creation_datetime: created,
        payments: [
          { id: 'P1', value: 5, card: { last_four_digits: '1111' } },
          { id: 'P2', value: 7 },
          { id: 'P3', card: { last_four_digits: '3333' } },
        ],
      }),
    ).toEqual([['P1', '1111', '500', '2024-04-02']]);
    expect(
      rows({
        id: 'O',
        creation_datetime: created,
        total_paid_value: 9.99,
        payments: [{ id: 'P', card: { last_four_digits: '1111' } }],
      }),
    ).toEqual([['P', '1111', '999', '2024-04-02']]);
    expect(
      rows({
        id: 'O',
        creation_datetime: created,
        payments: [
          { id: 'P1', value: 5 },
          { id: 'P2', value: 6, card: { last_four_digits: '11 11' } },
          { value: 1, card: { last_four_digits: '9999' } },
          { id: 'P3', value: 7, card: { last_four_digits: '3333' } },
        ],
      }),
    ).toEqual([['P3', '3333', '700', '2024-04-02']]);
    expect(rows({ id: 'O', payments: [{ id: 'P', value: 5, card: { last_four_digits: '1111' } }] })).toEqual(
      [],
    );
  });
});
