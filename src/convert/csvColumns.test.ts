import { describe, expect, it } from 'vitest';
import { orderSchema } from '../resources/order/schema.js';
import { planCsvColumns, rowToRecord } from './csvColumns.js';
import { flattenRecord } from './flatten.js';
import { orderResource } from '../resources/order/index.js';

function read(schema: Parameters<typeof planCsvColumns>[1], headers: string[], cells: string[]) {
  const { plan, issues } = planCsvColumns(headers, schema);
  const row = rowToRecord(plan, cells);
  return {
    value: row.value,
    issues: [...issues, ...row.issues].map((issue) => `${issue.code} @${issue.path}`),
  };
}

describe('CSV rows as records', () => {
  it('nests dotted headers and indexes arrays by number segments', () => {
    const { value, issues } = read(
      orderSchema,
      [
        'id',
        'total_paid_value',
        'evaluate',
        'user.id',
        'payments.0.id',
        'payments.0.card.first_six_digits',
        'payments.1.id',
        'coupon_names',
      ],
      ['O1', '10.50', 'TRUE', '0042', 'P1', '411111', 'P2', 'A|B'],
    );
    expect(issues).toEqual([]);
    expect(value).toEqual({
      id: 'O1',
      total_paid_value: 10.5,
      evaluate: true,
      user: { id: '0042' },
      payments: [{ id: 'P1', card: { first_six_digits: '411111' } }, { id: 'P2' }],
      coupon_names: ['A', 'B'],
    });
  });
  it('leaves empty cells out', () => {
    expect(read(orderSchema, ['id', 'user.id', 'payments.0.id'], ['O1', '', '']).value).toEqual({ id: 'O1' });
  });
  it('reports a decimal comma on its field and keeps the text', () => {
    const { value, issues } = read(orderSchema, ['id', 'total_paid_value'], ['O1', '10,50']);
    expect(issues).toEqual(['invalid-number @total_paid_value']);
    expect(value.total_paid_value).toBe('10,50');
  });
  it('reads custom_data as a JSON cell or as dotted columns', () => {
    expect(read(orderSchema, ['id', 'custom_data'], ['O1', '{"a":1}']).value).toEqual({
      id: 'O1',
      custom_data: { a: 1 },
    });
    expect(read(orderSchema, ['id', 'custom_data.channel'], ['O1', 'app']).value).toEqual({
      id: 'O1',
      custom_data: { channel: 'app' },
    });
  });
  it('reports duplicate headers, a wrong cell count, conflicting and sparse columns', () => {
    expect(read(orderSchema, ['id', 'id'], ['O1', 'O2']).issues).toEqual(['duplicate-header @id']);
    expect(read(orderSchema, ['id'], ['O1', 'extra']).issues).toEqual(['csv-column-count @']);
    expect(read(orderSchema, ['user', 'user.id'], ['x', 'U1']).issues).toEqual([
      'csv-header-conflict @user.id',
    ]);
    expect(read(orderSchema, ['id', 'payments.1.id'], ['O1', 'P2']).issues).toEqual(['sparse-array @']);
  });
  it('keeps a __proto__ header as an own field, away from the prototype', () => {
    const { value } = read(orderSchema, ['id', '__proto__.polluted'], ['O1', 'yes']);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe('flattenRecord', () => {
  it('turns the order example into columns that read back to the same record', () => {
    const cells = flattenRecord(orderSchema, orderResource.example);
    const headers = cells.map(([header]) => header);
    expect(headers).toContain('payments.0.card.first_six_digits');
    expect(headers).toContain('items.0.product.categories');
    const { value, issues } = read(
      orderSchema,
      headers,
      cells.map(([, cell]) => cell),
    );
    expect(issues).toEqual([]);
    expect(value).toEqual(orderResource.example);
  });
});

describe('the compiled row builder (compared with the generic one in fast/compiledRowBuilder.test.ts)', () => {
  it('is not used for headers it cannot compile, which still read correctly', () => {
    const { plan } = planCsvColumns(['user', 'user.id'], orderSchema);
    expect(plan.build(['x', 'U1']).issues.map((issue) => issue.code)).toEqual(['csv-header-conflict']);
  });
});
