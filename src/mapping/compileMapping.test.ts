import { describe, expect, it } from 'vitest';
import { applyRow } from './applyRow.js';
import { globMatches } from './compileMapping.js';
import { compileText, memoryRelated } from '../../test/helpers/mapping.js';
import { resources } from '../resources/registry.js';
import { validateRecord } from '../validate/validateRecord.js';

const orders = [['order_id', 'customer_id', 'order_status', 'ts', 'Financial Status']];
const entry = (fields: string, extra = '') =>
  `version: 1\nzone: America/Sao_Paulo\nrecords:\n  - endpoint: order\n    from: orders.csv\n` +
  `${extra}    fields:\n${fields}`;
const problems = (text: string, files: Record<string, string[][]> = { 'orders.csv': orders }) =>
  compileText(text, files).problems.map((p) => `${p.line}: ${p.message}${p.hint ? ` (${p.hint})` : ''}`);

describe('compileMapping', () => {
  it('names a target the service does not have, with a did-you-mean', () => {
    expect(problems(entry('      id: order_id\n      total_paid_valeu: order_id\n'))).toEqual([
      '8: the target total_paid_valeu is not a field the service knows (did you mean total_paid_value?)',
    ]);
  });
  it('names a column missing from the header, with a did-you-mean', () => {
    expect(problems(entry('      id: order_idd\n'))).toEqual([
      '7: the column "order_idd" is not in the header of orders.csv (did you mean "order_id"?)',
    ]);
  });
  it('names a sum over a list that is not built, a bad pattern, an unknown zone and endpoint', () => {
    expect(
      problems(entry('      id: order_id\n      total_paid_value: { sum: payments.value }\n'))[0],
    ).toMatch(/^8: sum: payments is not a list built/);
    expect(
      problems(entry('      creation_datetime: { column: ts, datetime: "yyyy-MM-dd QQ" }\n'))[0],
    ).toMatch(/^7: creation_datetime: datetime "yyyy-MM-dd QQ": "Q" is not a pattern letter/);
    expect(
      problems(entry('      creation_datetime: { column: ts, datetime: iso, zone: America/Sao_Paul }\n'))[0],
    ).toMatch(/^7: "America\/Sao_Paul" is not a time zone.*did you mean America\/Sao_Paulo/);
    expect(problems('version: 1\nrecords:\n  - endpoint: ordr\n    fields: { id: order_id }\n')).toEqual([
      '3: endpoint "ordr" is not one of order, status, fraud, payment, delivery (did you mean order?)',
    ]);
  });
  it('names a list file that is not there, and a from: that matches nothing', () => {
    expect(
      problems(
        entry(
          '      id: order_id\n',
          '    lists:\n      payments: { from: pay.csv, key: order_id, fields: { id: order_id } }\n',
        ),
      )[0],
    ).toMatch(/^7: the list payments reads pay.csv, which is not there/);
    expect(
      problems(
        'version: 1\nrecords:\n  - endpoint: order\n    from: nope*.csv\n    fields: { id: order_id }\n',
      )[0],
    ).toMatch(/^3: from: "nope\*.csv" matches no file here/);
  });
  it('feeds one column to many fields, sends only mapped fields and lists the ignored columns', () => {
    const compiled = compileText(entry('      id: order_id\n      custom_data.order_ref: order_id\n'), {
      'orders.csv': orders,
    });
    expect(compiled.problems).toEqual([]);
    const { value } = applyRow(
      compiled.entries[0]!.row,
      ['O1', 'C1', 'delivered', '10/2/2017 10:56', 'paid'],
      memoryRelated({}),
    );
    expect(value).toEqual({ id: 'O1', custom_data: { order_ref: 'O1' } });
    expect(compiled.ignored.get('orders.csv')).toEqual([
      'customer_id',
      'order_status',
      'ts',
      'Financial Status',
    ]);
  });
  it(
    'lists as ignored only the columns nothing reads: a list of the same file, keys, when and ' +
      'templates read theirs',
    () => {
      // One row per item: the order's row and its items' rows in one file; the note called the item columns
      // "never sent".
      const shop = [
        ['Name', 'Email', 'Total', 'Lineitem quantity', 'Lineitem price', 'Lineitem sku', 'Notes'],
      ];
      const pay = [['order', 'seq', 'amount', 'gateway']];
      const compiled = compileText(
        entry(
          '      id: Name\n      total_paid_value: { column: Total, number: decimal-point }\n',
          '    when: { column: Email, present: true }\n' +
            '    lists:\n' +
            '      items:\n        from: shop.csv\n        key: Name\n        fields:\n' +
            '          quantity: "Lineitem quantity"\n          unit_price: { column: "Lineitem ' +
            'price", number: decimal-point }\n' +
            '      payments:\n        from: pay.csv\n        key: { parent: Name, child: order }\n        fields:\n' +
            '          id: { template: "{order}-{seq}" }\n',
        ).replace('from: orders.csv', 'from: shop.csv'),
        { 'shop.csv': shop, 'pay.csv': pay },
      );
      expect(compiled.problems).toEqual([]);
      expect(Object.fromEntries(compiled.ignored)).toEqual({
        'shop.csv': ['Lineitem sku', 'Notes'],
        'pay.csv': ['amount', 'gateway'],
      });
    },
  );
  it('keeps the flat form: renames, plus columns named after fields; other columns are not sent', () => {
    const compiled = compileText(
      '{"id": "Order Number"}',
      { 'export.csv': [['Order Number', 'total_paid_value', 'Financial Status']] },
      { endpoint: 'order' },
    );
    expect(compiled.problems).toEqual([]);
    expect(applyRow(compiled.entries[0]!.row, ['O1', '10.50', 'paid'], memoryRelated({})).value).toEqual({
      id: 'O1',
      total_paid_value: 10.5,
    });
    expect(
      compileText(
        '{"id": "Order Numbr", "total_paid_valeu": "x"}',
        { 'export.csv': [['Order Number']] },
        { endpoint: 'order' },
      ).problems.map((p) => `${p.message} (${p.hint})`),
    ).toEqual([
      'the column "Order Numbr" is not in the header of export.csv (did you mean "Order Number"?)',
      'the target total_paid_valeu is not a field the service knows (did you mean total_paid_value?)',
    ]);
  });
  it('matches file globs', () => {
    expect(globMatches('orders-*.csv', 'orders-2024.csv')).toBe(true);
    expect(globMatches('orders-*.csv', 'payments.csv')).toBe(false);
  });
});

describe('applyRow', () => {
  const files = {
    'orders.csv': orders,
    'payments.csv': [
      ['order_id', 'seq', 'value', 'type'],
      ['O1', '1', '10,50', 'card'],
      ['O2', '1', '5,00', 'card'],
      ['O1', '2', 'R$ 1,25', 'voucher'],
      ['O1', '3', 'x', 'card'],
    ],
    'customers.csv': [
      ['id', 'unique'],
      ['C1', 'U-1'],
    ],
  };
  const text = entry(
    [
      '      id: order_id',
      '      user.id: { lookup: { from: customers.csv, key: { this: customer_id, that: id }, column: unique } }',
      '      total_paid_value: { sum: payments.value }',
      '      creation_datetime: { column: ts, datetime: "M/d/yyyy H:mm" }',
      '',
    ].join('\n'),
    '    lists:\n      payments:\n        from: payments.csv\n        key: order_id\n        when: ' +
      '{ column: type, in: [card, voucher] }\n        fields:\n          id: { template: ' +
      '"{order_id}-{seq}" }\n          value: { column: value, number: decimal-comma }\n',
  );

  it('builds lists from other files by key, sums them, looks up, and locates child issues', () => {
    const compiled = compileText(text, files);
    expect(compiled.problems).toEqual([]);
    expect(compiled.indexes).toEqual([
      { file: 'payments.csv', keyColumn: 'order_id' },
      { file: 'customers.csv', keyColumn: 'id' },
    ]);
    const mapped = applyRow(
      compiled.entries[0]!.row,
      ['O1', 'C1', 'delivered', '10/2/2017 10:56', ''],
      memoryRelated(files),
    );
    expect(mapped.value).toEqual({
      id: 'O1',
      user: { id: 'U-1' },
      total_paid_value: 11.75,
      creation_datetime: '2017-10-02T13:56:00Z',
      payments: [{ id: 'O1-1', value: 10.5 }, { id: 'O1-2', value: 1.25 }, { id: 'O1-3' }],
    });
    expect(mapped.issues).toEqual([
      expect.objectContaining({
        code: 'invalid-number',
        path: 'payments.2.value',
        child: { file: 'payments.csv', line: 5 },
      }),
    ]);
    expect(mapped.children?.get('payments.1')).toEqual({ file: 'payments.csv', line: 4 });
  });
  it('leaves a sum out when the list is empty, and the lookup out when nothing matches', () => {
    const compiled = compileText(text, files);
    expect(
      applyRow(
        compiled.entries[0]!.row,
        ['O9', 'C9', 'delivered', '10/2/2017 10:56', ''],
        memoryRelated(files),
      ).value,
    ).toEqual({ id: 'O9', creation_datetime: '2017-10-02T13:56:00Z' });
  });

  // Before: the raw cell was kept, so the order's phone check added phone-not-digits to invalid-phone.
  it('gives a refused cell one issue and leaves it out of the record', () => {
    const phones = { 'orders.csv': [['order_id', 'phone']] };
    const compiled = compileText(
      entry('      id: order_id\n      user.phone_number: { column: phone, phone: national, country: BR }\n'),
      phones,
    );
    expect(compiled.problems).toEqual([]);
    const mapped = applyRow(
      compiled.entries[0]!.row,
      ['O1', '+55 11 99123-4567 ext. 12'],
      memoryRelated(phones),
    );
    expect(mapped.value).toEqual({ id: 'O1' });
    const issues = validateRecord(resources.order, mapped.value, { now: new Date() }, mapped.issues, {
      fieldsChecked: true,
    });
    expect(issues.filter((issue) => issue.path === 'user.phone_number').map((issue) => issue.code)).toEqual([
      'invalid-phone',
    ]);
  });
});
