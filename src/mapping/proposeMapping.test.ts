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
    expect(text).toContain('      id: order_id   # ');
    expect(text).toContain('      user.id: customer_id   # ');
    expect(text).toContain(
      '      creation_datetime: { column: order_purchase_timestamp, datetime: "M/d/yyyy H:mm" }   ' +
        '# from the header "order_purchase_timestamp" and values like 10/2/2017 10:56, 10/13/2017 ' +
        '9:05\n',
    );
    // The status words as a status entry's value map, from the table of source-files.md.
    expect(text).toContain(
      '      status: { column: order_status, values: { delivered: approved, canceled: cancelled } ' +
        '}   # from the header "order_status"',
    );
    expect(text).toContain('# not proposed: notes: not a field of the service');
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

describe('proposeMapping for a one-row-per-item export', () => {
  // Shopify's "Export orders": an order's own columns on its first row only, one row per line item.
  const header = [
    'Name',
    'Email',
    'Total',
    'Shipping',
    'Discount Amount',
    'Created at',
    'Lineitem quantity',
    'Lineitem name',
    'Lineitem price',
    'Lineitem sku',
    'Billing Name',
    'Id',
  ];
  const rows = [
    [
      '#1001',
      'ana@example.com',
      '75.00',
      '5.00',
      '0.00',
      '2025-05-11 09:55:16 -0400',
      '1',
      'Shirt',
      '10.00',
      'S-1',
      'Ana Lima',
      '5551234',
    ],
    ['#1001', '', '', '', '', '', '2', 'Socks', '10.00', 'S-2', '', ''],
    ['#1001', '', '', '', '', '', '1', 'Hat', '20.00', 'S-3', '', ''],
    [
      '#1002',
      'bo@example.com',
      '5.00',
      '0.00',
      '1.00',
      '2025-05-12 10:00:00 +0200',
      '1',
      'Mug',
      '5.00',
      'S-5',
      'Bo Berg',
      '5551235',
    ],
  ];
  const text = proposeMapping([{ file: 'orders_export.csv', header, rows }], orderResource);

  it(
    "keeps the order's first rows with when, and builds its items from its own rows (from: self, by " +
      'the repeating key)',
    () => {
      expect(text).toContain('    when: { column: Id, present: true }');
      expect(text).toMatch(/ {4}lists:\n {6}items:\n {8}from: self .*\n {8}key: Name\n {8}fields:\n/);
      for (const line of [
        '          quantity: "Lineitem quantity"   # ',
        '          unit_price: { column: "Lineitem price", number: decimal-point }   # ',
        '          product.sku: "Lineitem sku"   # ',
        '          product.title: "Lineitem name"   # ',
      ])
        expect(text).toContain(line);
    },
  );
  it('matches Total, Shipping and Discount, reads offsets as iso, and proposes the id', () => {
    for (const line of [
      '      id: Id   # ',
      '      total_paid_value: { column: Total, number: decimal-point }   # ',
      '      shipping_value: { column: Shipping, number: decimal-point }   # ',
      '      discount_value: { column: "Discount Amount", number: decimal-point }   # ',
      '      creation_datetime: { column: "Created at", datetime: iso }   # from the header ' +
        '"Created at" and values like 2025-05-11 09:55:16 -0400, 2025-05-12 10:00:00 +0200\n',
      '      user.name: "Billing Name"   # ',
    ])
      expect(text).toContain(line);
  });
  it("never maps an order number to a person's name; without an Id column it is the id", () => {
    expect(text).not.toMatch(/(user|seller)\.name: Name\b/);
    expect(text).toContain('      custom_data.order_name: Name   # ');
    const withoutId = proposeMapping(
      [{ file: 'orders_export.csv', header: header.slice(0, 10), rows: rows.map((row) => row.slice(0, 10)) }],
      orderResource,
    );
    expect(withoutId).toContain('      id: Name   # ');
    expect(withoutId).not.toContain('user.name: Name');
    expect(withoutId).toContain('    when: { column: Email, present: true }');
  });
  it('writes the dialect the files were read in, once for all files', () => {
    const dialect = { delimiter: ';', encoding: 'windows-1252' } as const;
    const both = proposeMapping(
      [
        { file: 'a.csv', header, rows, dialect },
        { file: 'b.csv', header, rows, dialect },
      ],
      orderResource,
    );
    expect(both.match(/csv: /g)).toHaveLength(1);
    expect(both).toContain('\ncsv: { delimiter: ";", encoding: windows-1252 }');
    expect(text).not.toContain('csv:');
  });
});
