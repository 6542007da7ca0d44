import { describe, expect, it } from 'vitest';
import { exportedPayments } from './exportedPayments.js';
import { exportedKeys } from './ordersExport.js';

describe('exportedPayments (an orders export)', () => {
  it('reads the flat columns, or an order with its payments, or an order alone', () => {
    expect(exportedPayments({ order_id: 'O', acquirer_id: 'A', x: 1 })).toMatchObject([
      { order_id: 'O', acquirer_id: 'A', payment_id: null },
    ]);
    expect(
      exportedPayments({ id: 'O', payments: [{ id: 'P1', acquirer_id: 'A1' }, { id: 'P2' }, 'x'] }),
    ).toMatchObject([
      { order_id: 'O', acquirer_id: 'A1', payment_id: 'P1' },
      { order_id: 'O', payment_id: 'P2' },
    ]);
    expect(exportedPayments({ order_id: 'O' })).toMatchObject([{ order_id: 'O', payment_id: null }]);
    expect(exportedPayments(null)).toEqual([]);
  });

  it('takes the ARN and the authorisation data from a payment custom_data, the date from the order', () => {
    const [payment] = exportedPayments({
      id: 'O',
      creation_datetime: '2024-04-02T23:30:00-03:00',
      total_paid_value: 129.9,
      payments: [
        {
          id: 'P',
          card: { last_four_digits: '1808' },
          custom_data: { arn: '74537604221431003881865', authorization_code: 'a1b2', nsu: 2947 },
        },
      ],
    });
    expect(payment).toMatchObject({
      arn: '74537604221431003881865',
      authorization_code: 'a1b2',
      nsu: '2947',
      card_last_four: '1808',
      amount: 129.9,
      sale_date: '2024-04-02T23:30:00-03:00',
    });
    // The card key on the UTC date (the 3rd), the authorisation key by NSU, digits without leading zeros.
    const days = Date.UTC(2024, 3, 3) / 86_400_000;
    expect(exportedKeys(payment!)).toEqual([
      'arn:74537604221431003881865',
      `card:1808|12990|${days}`,
      `authorization:a1b2|n:2947|${days}`,
    ]);
  });

  it('indexes the authorisation key by the NSU and by the terminal when the export has both', () => {
    const [payment] = exportedPayments({
      order_id: 'O',
      authorization_code: '007',
      nsu: '000123',
      terminal_id: 'TERM9',
      sale_date: '2024-04-02',
    });
    const day = Date.UTC(2024, 3, 2) / 86_400_000;
    expect(exportedKeys(payment!)).toEqual([
      `authorization:7|n:123|${day}`,
      `authorization:7|t:term9|${day}`,
    ]);
  });
});
