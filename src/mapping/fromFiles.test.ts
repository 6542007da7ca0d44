import { describe, expect, it } from 'vitest';
import { applyRow } from './applyRow.js';
import { filesOfFrom, globMatches, joinedFiles } from './fromFiles.js';
import { parseMapping } from './parseMapping.js';
import { compileText, memoryRelated } from '../../test/helpers/mapping.js';

/** A Shopify-like file: one row per line item, the order's columns on its first row only. */
const shop = [
  ['Name', 'Id', 'Total', 'Phone', 'Address1', 'Lineitem quantity', 'Lineitem price'],
  ['#1', '101', '129.80', '+55 11 99123-4567', 'Rua Augusta, 1500', '2', '49.90'],
  ['#1', '', '', '', '', '1', '30.00'],
  ['#2', '102', '10', '', 'Praça da Sé', '1', ''],
];
const mapping = (fields: string, lists = '') =>
  [
    'version: 1',
    'records:',
    '  - endpoint: order',
    '    from: "shop_*.csv"',
    '    when: { column: Id, present: true }',
    '    fields:',
    '      id: Id',
    fields,
    '    lists:',
    '      items:',
    '        from: self',
    '        key: Name',
    '        fields: { quantity: Lineitem quantity, unit_price: { column: Lineitem price, number: decimal-point } }',
    lists,
  ].join('\n');

describe('from: self and globs', () => {
  it('resolves self to the file of the row, a glob to the matching files, a name to itself', () => {
    const listing = ['a_1.csv', 'a_2.csv', 'b.csv'];
    expect(filesOfFrom('self', 'a_2.csv', listing)).toEqual(['a_2.csv']);
    expect(filesOfFrom('A_*.csv', 'b.csv', listing)).toEqual(['a_1.csv', 'a_2.csv']);
    expect(filesOfFrom('c.csv', 'b.csv', listing)).toEqual(['c.csv']);
    const { spec } = parseMapping(
      mapping('      total_paid_value: { lookup: { from: "a_*.csv", key: Id, column: v } }'),
    );
    expect([...joinedFiles(spec!.entries[0]!, 'shop_5.csv', listing)]).toEqual([
      'a_1.csv',
      'a_2.csv',
      'shop_5.csv',
    ]);
  });

  it("builds a list from the rows of the entry's own file by key: one entry for every monthly file", () => {
    const files = { 'shop_1.csv': shop, 'shop_2.csv': shop };
    const compiled = compileText(
      mapping('      total_gross_value: { sum: items.unit_price, times: items.quantity }'),
      files,
      {
        files: ['shop_1.csv', 'shop_2.csv'],
      },
    );
    expect(compiled.problems).toEqual([]);
    expect(compiled.entries.map((entry) => entry.file)).toEqual(['shop_1.csv', 'shop_2.csv']);
    // Each file's entry joins its own rows: no compiled row shared between the files.
    expect(compiled.entries[1]!.row.lists[0]!.file).toBe('shop_2.csv');
    expect(compiled.indexes).toEqual([
      { file: 'shop_1.csv', keyColumn: 'Name' },
      { file: 'shop_2.csv', keyColumn: 'Name' },
    ]);
    const { row } = compiled.entries[0]!;
    expect(row.keep(shop[2]!)).toBe(false);
    const mapped = applyRow(row, shop[1]!, memoryRelated(files));
    expect(mapped.value).toEqual({
      id: '101',
      total_gross_value: 129.8,
      items: [
        { quantity: 2, unit_price: 49.9 },
        { quantity: 1, unit_price: 30 },
      ],
    });
    expect(mapped.children?.get('items.1')).toEqual({ file: 'shop_1.csv', line: 3 });
  });

  it('makes an element lacking a factor of sum … times an error of that element, at its row', () => {
    const files = { 'shop_1.csv': shop };
    const compiled = compileText(
      mapping('      total_gross_value: { sum: items.unit_price, times: items.quantity }'),
      files,
    );
    const mapped = applyRow(compiled.entries[0]!.row, shop[3]!, memoryRelated(files));
    expect(mapped.value.total_gross_value).toBeUndefined();
    expect(mapped.issues).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'sum-element-incomplete',
        path: 'items.0.unit_price',
        child: { file: 'shop_1.csv', line: 4 },
        message:
          'items.unit_price × items.quantity cannot be summed: this element has no number in unit_price',
      }),
    ]);
  });

  it('gives one no-match warning per pattern and cell, however many fields read it', () => {
    const street = "'^(?<name>.+?),?\\s+(?<number>\\d+[A-Za-z]?)\\s*$'";
    const files = { 'shop_1.csv': shop };
    const compiled = compileText(
      mapping(
        [
          `      user.address.street_name: { column: Address1, match: ${street}, group: name }`,
          `      user.address.street_number: { column: Address1, match: ${street}, group: number }`,
        ].join('\n'),
      ),
      files,
    );
    expect(compiled.problems).toEqual([]);
    const good = applyRow(compiled.entries[0]!.row, shop[1]!, memoryRelated(files));
    expect(good.value.user).toEqual({ address: { street_name: 'Rua Augusta', street_number: '1500' } });
    const bad = applyRow(compiled.entries[0]!.row, shop[3]!, memoryRelated(files));
    expect(bad.value.user).toBeUndefined();
    expect(bad.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual([
      'warning no-match user.address.street_name',
    ]);
  });

  it(
    'names the mistakes: times over a missing field, a glob of no file, files of a glob that differ, ' +
      'split into a text',
    () => {
      const problems = (fields: string, lists = '', more: Record<string, string[][]> = {}) =>
        compileText(
          mapping(fields, lists),
          { 'shop_1.csv': shop, ...more },
          {
            listing: ['shop_1.csv', ...Object.keys(more)],
          },
        ).problems.map((p) => `${p.line}: ${p.message}`);
      expect(problems('      total_gross_value: { sum: items.unit_price, times: items.qty }')).toEqual([
        '8: times: the list items has no field qty',
      ]);
      expect(problems('      user.name: { column: Name, split: "," }')).toEqual([
        '8: user.name: split makes a list of texts, and this field is not a list (it is a string)',
      ]);
      const payments = '      payments: { from: "pay_*.csv", key: Name, fields: { id: ref } }';
      expect(problems('', payments)).toEqual([
        '14: the list payments reads pay_*.csv, which matches no file here',
      ]);
      expect(
        problems('', payments, {
          'pay_1.csv': [['Name', 'ref']],
          'pay_2.csv': [['ref', 'Name']],
          'pay_3.csv': [['Name']],
        }),
      ).toEqual([
        '14: the list payments reads pay_*.csv, whose files differ in their columns (pay_1.csv and pay_3.csv)',
      ]);
      const both = compileText(
        mapping('', payments),
        { 'shop_1.csv': shop, 'pay_1.csv': [['Name', 'ref']], 'pay_2.csv': [['ref', 'Name']] },
        {
          listing: ['pay_1.csv', 'pay_2.csv', 'shop_1.csv'],
        },
      );
      expect(both.problems).toEqual([]);
      expect(both.indexes).toContainEqual({
        file: 'pay_*.csv',
        keyColumn: 'Name',
        files: ['pay_1.csv', 'pay_2.csv'],
      });
    },
  );
});

describe('from: self and the columns read', () => {
  it("counts the columns a self list reads as read in the entry's file (never an ignored column)", () => {
    const compiled = compileText(
      [
        'version: 1',
        'records:',
        '  - endpoint: order',
        '    from: shop_1.csv',
        '    fields: { id: Id }',
        '    lists:',
        '      items: { from: self, key: Name, fields: { quantity: Lineitem quantity } }',
      ].join('\n'),
      { 'shop_1.csv': shop },
    );
    expect(compiled.problems).toEqual([]);
    expect(compiled.ignored.get('shop_1.csv')).toEqual(['Total', 'Phone', 'Address1', 'Lineitem price']);
  });
});

describe('globs', () => {
  it('match * and ? ignoring case, every other character as itself', () => {
    expect(globMatches('ORDERS_??.CSV', 'orders_01.csv')).toBe(true);
    expect(globMatches('orders_?.csv', 'orders_01.csv')).toBe(false);
    expect(globMatches('a+b(1)*.csv', 'a+b(1) copy.csv')).toBe(true);
    expect(globMatches('a.csv', 'abcsv')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('*a*b', 'xaxbxb')).toBe(true);
    expect(globMatches('*a*b', 'xaxbx')).toBe(false);
  });

  it('match a glob of many stars in time linear in the name (a regular expression backtracked for seconds)', () => {
    const started = performance.now();
    expect(globMatches('*_*_*_*.csv', `${'_'.repeat(250)}.txt`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
