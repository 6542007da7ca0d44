import { describe, expect, it } from 'vitest';
import { orderResource } from '../resources/order/index.js';
import { parseMapping } from './parseMapping.js';
import { proposeMapping } from './proposeMapping.js';

describe('map init on a Shopify export', () => {
  const header = [
    'Name',
    'Email',
    'Financial Status',
    'Created at',
    'Billing Phone',
    'Billing Address1',
    'Billing Country',
    'Phone',
    'Vendor',
    'Lineitem name',
    'Id',
  ];
  const rows = [
    [
      '#1',
      'a@example.com',
      'paid',
      '2025-05-11 09:55:16 -0400',
      '',
      'Rua A, 1',
      'BR',
      '(11) 99123-4567',
      'Casa',
      'Mug',
      '1001',
    ],
    [
      '#1',
      'a@example.com',
      '',
      '2025-05-11 09:55:16 -0400',
      '',
      '',
      '',
      '(11) 99123-4567',
      'Casa',
      'Cup',
      '',
    ],
    [
      '#2',
      'b@example.com',
      'on_hold',
      '2025-05-12 10:00:00 -0400',
      '',
      'Rua B, 2',
      'BR',
      '+55 21 98765-4321',
      'Fio',
      'Hat',
      '1002',
    ],
  ];
  const text = proposeMapping([{ file: 'orders_export.csv', header, rows }], orderResource);

  it('writes a mapping that parses', () => {
    expect(parseMapping(text).problems).toEqual([]);
  });
  it(
    "reads the phone from Phone when the sample's Billing Phone is empty, with the billing country " +
      'for numbers without +',
    () => {
      expect(text).toContain(
        'user.phone_number: { column: Phone, phone: national, country: BR }   # from the header "Phone"',
      );
      expect(text).toContain('# empty in the sample: "Billing Phone"');
    },
  );
  it('proposes no address that lacks a required part, and says so', () => {
    expect(text).not.toContain('user.address.');
    expect(text).toContain('# user.address not proposed: no column with values for its city, state');
  });
  it("takes the e-mail as the customer's, a vendor as the item's custom data, never a seller", () => {
    expect(text).toContain('user.email: Email   # ');
    expect(text).toContain('custom_data.vendor: Vendor   # ');
    expect(text).not.toContain('seller');
  });
  it('lists a status word no table knows with the six statuses', () => {
    expect(text).toContain('values: { paid: approved, on_hold: "?" }');
    expect(text).toContain('# on_hold: no status known for it: map each to one of approved, declined');
  });
});

describe('map init on a marketplace export', () => {
  const files = [
    {
      file: 'orders.csv',
      header: ['order_id', 'customer_id', 'order_status', 'order_purchase_timestamp'],
      rows: [
        ['O1', 'C1', 'delivered', '2017-10-02 10:56:33'],
        ['O2', 'C2', 'created', '2017-10-03 11:00:00'],
      ],
    },
    {
      file: 'payments.csv',
      header: ['order_id', 'payment_sequential', 'payment_type', 'payment_installments', 'payment_value'],
      rows: [
        ['O1', '1', 'credit_card', '0', '10.00'],
        ['O2', '1', 'not_defined', '1', '5.00'],
      ],
    },
    {
      file: 'customers.csv',
      header: ['customer_id', 'customer_unique_id', 'customer_state'],
      rows: [
        ['C1', 'U1', 'SP'],
        ['C2', 'U1', 'RJ'],
      ],
    },
  ];
  const text = proposeMapping(files, orderResource);

  it('writes a mapping that parses, in the zone the states suggest', () => {
    expect(parseMapping(text).problems).toEqual([]);
    expect(text).toContain('zone: America/Sao_Paulo   # ');
    expect(text).toContain('datetime: "yyyy-MM-dd HH:mm:ss"');
  });
  it("takes the person from the customers file, not the order's customer_id", () => {
    expect(text).toContain(
      'user.id: { lookup: { from: customers.csv, key: customer_id, column: customer_unique_id } }',
    );
    expect(text).toContain('# not proposed as user.id: customer_id');
  });
  it('maps not_defined to other, lists installments of 0, and filters created out of the status entry', () => {
    expect(text).toContain('method: { column: payment_type, values: { not_defined: other } }');
    expect(text).toContain('# a 0 in payment_installments');
    expect(text).toContain('when: { column: order_status, not-in: [created] }');
  });
});

describe('map init on hostile headers and cells', () => {
  it('writes a mapping that parses when a known header or a cell holds quotes, line breaks and escapes', () => {
    const header = ['Name', 'I"d\n', 'Created at', 'Financial Status', 'Payment Method', 'Lineitem name'];
    const rows = [
      ['#1', '1001', '2025-05-11 09:55:16 -0400', 'paid', 'card', 'Mug\u001b[2J\n# evil: yes'],
      ['#1', '', '2025-05-11 09:55:16 -0400', '', '', 'Cup'],
    ];
    const text = proposeMapping([{ file: 'orders\nexport.csv', header, rows }], orderResource);
    expect(parseMapping(text).problems).toEqual([]);
    expect(text).not.toContain('\u001b');
    expect(text).not.toMatch(/^# evil/m);
    expect(text).toContain('payments.0.id: { template: "{I\\"d\\n}-1" }');
  });
});
