import { describe, expect, it } from 'vitest';
import { fileDialects } from './fileDialects.js';
import { parseMapping } from './parseMapping.js';

const dialects = (text: string, files: string[], listing = files) => {
  const { spec, problems } = parseMapping(text);
  expect(problems).toEqual([]);
  const found = fileDialects(spec!, files, listing);
  return { ...found, problems: found.problems.map((p) => `${p.line}: ${p.message}`) };
};

describe('fileDialects', () => {
  it('gives each file the csv: around it: top, then entry, then list or lookup, part by part', () => {
    const { dialects: found, problems } = dialects(
      [
        'version: 1',
        'csv: { delimiter: ";", encoding: windows-1252 }',
        'records:',
        '  - endpoint: order',
        '    from: "orders_*.csv"',
        '    fields: { id: Id, user.id: { lookup: { from: users.csv, key: U, column: V, csv: { delimiter: "," } } } }',
        '    lists:',
        '      items: { from: self, key: Id, fields: { quantity: Q } }',
        '      payments: { from: "pay_*.csv", key: Id, csv: { encoding: utf-8 }, fields: { id: P } }',
      ].join('\n'),
      ['orders_1.csv', 'orders_2.csv'],
      ['orders_1.csv', 'orders_2.csv', 'pay_1.csv', 'users.csv'],
    );
    expect(problems).toEqual([]);
    expect(Object.fromEntries(found)).toEqual({
      'orders_1.csv': { delimiter: ';', encoding: 'windows-1252' },
      'orders_2.csv': { delimiter: ';', encoding: 'windows-1252' },
      'users.csv': { delimiter: ',', encoding: 'windows-1252' },
      'pay_1.csv': { delimiter: ';', encoding: 'utf-8' },
    });
  });

  it('refuses one file read with two dialects, naming both lines', () => {
    const { problems } = dialects(
      [
        'version: 1',
        'records:',
        '  - endpoint: order',
        '    from: a.csv',
        '    fields: { id: Id }',
        '  - endpoint: status',
        '    from: a.csv',
        '    csv: { delimiter: ";" }',
        '    fields: { id: Id, status: S }',
      ].join('\n'),
      ['a.csv'],
    );
    expect(problems).toEqual([
      '6: a.csv is read here as ";"-separated utf-8, and as ","-separated utf-8 by line 3',
    ]);
  });

  it('reads the csv: keys and names their mistakes', () => {
    const { problems } = parseMapping(
      'version: 1\ncsv: { delimiter: ";;", quote: "x", encoding: ebcdic, sep: "," }\nrecords:\n  - ' +
        'endpoint: order\n    fields: { id: Id }\n',
    );
    expect(problems.map((p) => p.message)).toEqual([
      'unknown key "sep" in csv',
      'csv delimiter is one character',
      'csv encoding must be utf-8, windows-1252 or latin1, not "ebcdic"',
    ]);
    expect(
      parseMapping(
        'version: 1\ncsv: { delimiter: "\\t", encoding: CP1252 }\nrecords:\n  - endpoint: order\n' +
          '    fields: { id: Id }\n',
      ).spec?.csv,
    ).toEqual({ delimiter: '\t', encoding: 'windows-1252' });
  });
});
