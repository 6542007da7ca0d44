import { describe, expect, it } from 'vitest';
import { orderResource } from '../resources/order/index.js';
import { paymentResource } from '../resources/payment/index.js';
import { parseMapping } from './parseMapping.js';
import { proposeMapping } from './proposeMapping.js';

describe('proposeMapping', () => {
  const sample = {
    file: 'orders.csv',
    header: ['order_id', 'customer_id', 'order_status', 'order_purchase_timestamp', 'Total', 'notes'],
    rows: [
      ['A1', 'C1', 'delivered', '10/2/2017 10:56', 'R$ 1.234,56', 'x'],
      ['A2', 'C2', 'canceled', '10/13/2017 9:05', '259,90', ''],
    ],
  };
  const text = proposeMapping([sample], orderResource, 'America/Sao_Paulo');
  it('matches columns by name, guesses the datetime pattern, and lists enum values next to the allowed ones', () => {
    expect(text).toContain('      id: order_id\n');
    expect(text).toContain('      user.id: customer_id\n');
    expect(text).toContain(
      '      creation_datetime: { column: order_purchase_timestamp, datetime: "M/d/yyyy H:mm" }',
    );
    expect(text).toContain(
      'status: { column: order_status, values: { delivered: "?", canceled: cancelled } }   # map each to one of: approved, declined',
    );
    expect(text).toContain('# ?: notes   # not matched; e.g. "x"');
  });
  it('writes a mapping that parses', () => {
    expect(parseMapping(text).problems).toEqual([]);
  });
  it("maps order_id to the field that names the record's order, and <endpoint>_id to its own id", () => {
    const payments = proposeMapping(
      [
        {
          file: 'payments.csv',
          header: ['payment_id', 'order_id', 'acquirer_id'],
          rows: [['P1', 'A1', 'Q1']],
        },
      ],
      paymentResource,
    );
    expect(payments).toContain('      id: payment_id\n');
    expect(payments).toContain('      order_id: order_id\n');
  });
});
