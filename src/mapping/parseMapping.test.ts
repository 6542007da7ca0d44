import { describe, expect, it } from 'vitest';
import { parseMapping } from './parseMapping.js';

const problems = (text: string) =>
  parseMapping(text).problems.map((p) => `${p.line}: ${p.message}${p.hint ? ` (${p.hint})` : ''}`);

describe('parseMapping', () => {
  it('reads the old flat JSON form as renames for the command endpoint', () => {
    const { spec } = parseMapping('{"id": "Order Number", "status": "State"}');
    expect(spec?.entries).toEqual([
      expect.objectContaining({
        passKnownColumns: true,
        fields: [
          { target: 'id', source: { kind: 'column', column: 'Order Number' }, line: 1 },
          { target: 'status', source: { kind: 'column', column: 'State' }, line: 1 },
        ],
      }),
    ]);
  });
  it('reads every source form with its line', () => {
    const { spec, problems: found } = parseMapping(
      [
        'version: 1',
        'zone: America/Sao_Paulo',
        'records:',
        '  - endpoint: order',
        '    from: orders.csv',
        '    when: { column: status, not-in: [created] }',
        '    fields:',
        '      id: order_id',
        '      evaluate: { value: false }',
        '      creation_datetime: { column: ts, datetime: "M/d/yyyy H:mm", zone: UTC }',
        '      total_paid_value: { sum: payments.value }',
        '      user.id: { lookup: { from: customers.csv, key: { this: customer_id, that: id }, column: uid } }',
        '    lists:',
        '      payments: { from: payments.csv, key: order_id, fields: { id: { template: ' +
          '"{order_id}-{seq}" }, value: { column: v, number: decimal-comma } } }',
      ].join('\n'),
    );
    expect(found).toEqual([]);
    const entry = spec!.entries[0]!;
    expect(entry.when).toEqual([{ column: 'status', notIn: ['created'], line: 6 }]);
    expect(entry.fields.map((f) => [f.target, f.line, f.source.kind])).toEqual([
      ['id', 8, 'column'],
      ['evaluate', 9, 'value'],
      ['creation_datetime', 10, 'column'],
      ['total_paid_value', 11, 'sum'],
      ['user.id', 12, 'lookup'],
    ]);
    expect(entry.fields[4]!.source).toMatchObject({ key: { parent: 'customer_id', child: 'id' } });
    expect(entry.lists[0]).toMatchObject({
      name: 'payments',
      from: 'payments.csv',
      key: { parent: 'order_id', child: 'order_id' },
    });
  });
  it('names the line of an unknown key, with a did-you-mean', () => {
    expect(problems('version: 1\nrecords:\n  - endpoint: order\n    feilds:\n      id: x\n')).toEqual([
      '4: unknown key "feilds" in a records entry (did you mean "fields"?)',
    ]);
    expect(
      problems(
        'version: 1\nrecords:\n  - endpoint: order\n    fields:\n      id: { column: a, datetim: iso }\n',
      )[0],
    ).toMatch(/^5: unknown key "datetim".*did you mean "datetime"/);
  });
  it('names the line of a YAML syntax error and of a source with two kinds', () => {
    expect(problems('version: 1\nrecords:\n  - endpoint: order\n    fields: { id: [\n')[0]).toMatch(
      /^5: Flow sequence/,
    );
    expect(
      problems('version: 1\nrecords:\n  - endpoint: order\n    fields:\n      id: { column: a, value: b }\n'),
    ).toEqual([
      '5: the source of id needs exactly one of column, value, template, sum, lookup (it has column and value)',
    ]);
  });
});
