/**
 * The compiled row builder against the generic one: both real paths, on the same headers and
 * rows, must build the same records (keys in the same order) and the same issues.
 */
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';
import { compileRowBuilder } from './compiledRowBuilder.js';
import { buildRowGeneric, planCsvColumns } from '../convert/csvColumns.js';
import { flattenRecord } from '../convert/flatten.js';

/** A fixed pseudo-random sequence: the same rows on every run. */
function seeded(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
/** Cells valid for some kinds and invalid for others: numbers with commas, booleans in any case, lists, JSON. */
const SAMPLES = [
  '',
  '',
  '',
  'x',
  '0042',
  '12',
  '10.50',
  '-3',
  '10,50',
  '1.234,56',
  '1,234.56',
  ' 12 ',
  '1e3',
  '+2',
  '.5',
  'ten',
  'R$ 10.50',
  'true',
  'false',
  'TRUE',
  'False',
  ' true',
  'yes',
  'A|B',
  'A',
  '|',
  '["a","b|c"]',
  ' ["x"]',
  '[bad',
  '{"a":1}',
  '{bad',
  '[1,{"b":2}]',
  deep,
  '2024-03-01T14:30:00Z',
  'é',
  '"quoted"',
  'null',
];

/**
 * The example's columns, a second element of each array, a gap, custom_data as one JSON cell or dotted, and
 * unknown fields.
 */
function headersOf(resource: Resource): string[][] {
  const flat = flattenRecord(resource.schema, resource.example as Record<string, unknown>).map(
    ([header]) => header,
  );
  const second = flat.filter((header) => /\.0\./.test(header)).map((header) => header.replace('.0.', '.1.'));
  const gap = flat
    .filter((header) => /\.0\./.test(header))
    .slice(0, 1)
    .map((header) => header.replace('.0.', '.3.'));
  const withoutCustom = flat.filter((header) => header !== 'custom_data');
  return [
    [...flat, ...second, 'extra.note', 'extra.list.0'],
    [...withoutCustom, 'custom_data.channel', 'custom_data.nested.level', 'custom_data.list.0', ...gap],
    [...withoutCustom.reverse(), 'custom_data'],
  ];
}

describe.each(Object.values(resources).map((resource) => [resource.name, resource] as const))(
  '%s rows: compiled and generic builders',
  (_, resource) => {
    it.each(headersOf(resource).map((headers, n) => [n, headers] as const))(
      'build the same records and issues, header set %i',
      (_n, headers) => {
        const { plan } = planCsvColumns(headers, resource.schema);
        const compiled = compileRowBuilder(plan.columns, plan.width);
        expect(compiled).toBeDefined();
        const random = seeded(headers.length * 7919 + 1);
        let issuesSeen = 0;
        for (let n = 0; n < 300; n++) {
          const shape = random();
          const width = shape < 0.05 ? plan.width - 1 : shape < 0.1 ? plan.width + 1 : plan.width;
          const cells = Array.from({ length: width }, () => SAMPLES[Math.floor(random() * SAMPLES.length)]!);
          const generic = buildRowGeneric(plan.columns, plan.width, cells);
          const built = compiled!(cells);
          expect(built).toEqual(generic);
          expect(JSON.stringify(built)).toBe(JSON.stringify(generic));
          issuesSeen += generic.issues.length;
        }
        expect(issuesSeen).toBeGreaterThan(0);
      },
    );

    it('build the example row into the example, without issues, both ways', () => {
      const cells = flattenRecord(resource.schema, resource.example as Record<string, unknown>);
      const { plan } = planCsvColumns(
        cells.map(([header]) => header),
        resource.schema,
      );
      const row = cells.map(([, cell]) => cell);
      const generic = buildRowGeneric(plan.columns, plan.width, row);
      expect(generic).toEqual({ value: resource.example, issues: [] });
      expect(compileRowBuilder(plan.columns, plan.width)!(row)).toEqual(generic);
    });
  },
);

describe('compileRowBuilder', () => {
  it('declines headers it cannot compile: a column inside another, or __proto__', () => {
    expect(
      compileRowBuilder(planCsvColumns(['user', 'user.id'], resources.order.schema).plan.columns, 2),
    ).toBeUndefined();
    expect(
      compileRowBuilder(planCsvColumns(['id', '__proto__.x'], resources.order.schema).plan.columns, 2),
    ).toBeUndefined();
  });

  it('declines a header naming what objects inherit, so no row can write into Object.prototype', () => {
    const { plan } = planCsvColumns(
      ['id', 'constructor.prototype.status', 'user.toString'],
      resources.order.schema,
    );
    expect(compileRowBuilder(plan.columns, plan.width)).toBeUndefined();
    const built = buildRowGeneric(plan.columns, plan.width, ['A', 'bogus', 'x']);
    expect(built.value).toMatchObject({ id: 'A', constructor: { prototype: { status: 'bogus' } } });
    expect(({} as Record<string, unknown>).status).toBeUndefined();
  });

  it('reads an index with a leading zero as the generic builder does (a key, not an octal number)', () => {
    const { plan } = planCsvColumns(['id', 'items.010.quantity'], resources.order.schema);
    const row = ['A', '2'];
    expect(compileRowBuilder(plan.columns, plan.width)!(row)).toEqual(
      buildRowGeneric(plan.columns, plan.width, row),
    );
  });
});
