import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const FIXTURE = 'fixtures/shopify';
const MAPPING = `${FIXTURE}/mapping.yaml`;
const MONTHS = ['orders_export_1.csv', 'orders_export_2.csv'];
const env = { COLLECT_API_KEY: 'sk_test_shopify' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

type Row = Record<string, string>;

/** The export's rows as csv-parse reads them with the given dialect (the test's own reading, not collect's). */
function rowsOf(
  file: string,
  options: { delimiter?: string; encoding?: 'utf-8' | 'windows-1252' } = {},
): Row[] {
  const text = new TextDecoder(options.encoding ?? 'utf-8').decode(readFileSync(file));
  return parse(text, { columns: true, delimiter: options.delimiter ?? ',' }) as Row[];
}

const money = (text: string) => Number(text);

/** "+55 11 99123-4567" -> ["55", "11991234567"]; without + the number is Brazilian (the mapping's country: BR). */
function phoneParts(text: string): [string, string] {
  const digits = text.replace(/\D/g, '');
  if (!text.trim().startsWith('+')) return ['55', digits];
  const code = ['55', '351'].find((prefix) => digits.startsWith(prefix))!;
  return [code, digits.slice(code.length)];
}

/** What the service should hold for each order, worked out from the raw rows by hand-written rules. */
function expectedOrders(rows: Row[]): Map<string, Record<string, unknown>> {
  const orders = new Map<string, Record<string, unknown>>();
  const first = new Map<string, Row>();
  const items = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.Id) first.set(row.Name!, row);
    items.set(row.Name!, [...(items.get(row.Name!) ?? []), row]);
  }
  for (const [name, row] of first) {
    const lines = items.get(name)!;
    const street = /^(.*?),?\s+(\d+\w?)$/.exec(row['Billing Address1']!)!;
    const [code, national] = phoneParts(row['Billing Phone']!);
    const gross = lines.reduce(
      (sum, line) => sum + Number(line['Lineitem quantity']) * money(line['Lineitem price']!),
      0,
    );
    const codes = row['Discount Code']!.split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    orders.set(row.Id!, {
      id: row.Id,
      evaluate: false,
      status: { paid: 'approved', pending: 'pending', refunded: 'cancelled', voided: 'cancelled' }[
        row['Financial Status']!
      ],
      creation_datetime: new Date(row['Created at']!.replace(' ', 'T').replace(/ ([+-]\d\d)(\d\d)$/, '$1:$2'))
        .toISOString()
        .replace('.000Z', 'Z'),
      currency: row.Currency,
      total_paid_value: money(row.Total!),
      shipping_value: money(row.Shipping!),
      discount_value: money(row['Discount Amount']!),
      total_gross_value: Math.round(gross * 100) / 100,
      ...(codes.length > 0 ? { coupon_names: codes } : {}),
      user: {
        id: row.Email,
        email: row.Email,
        name: row['Billing Name'],
        phone_country_code: code,
        phone_number: national,
        address: {
          street_name: street[1],
          street_number: street[2],
          ...(row['Billing Address2'] ? { details: row['Billing Address2'] } : {}),
          city: row['Billing City'],
          state: row['Billing Province'],
          country: row['Billing Country'],
          zip_code: row['Billing Zip'],
        },
      },
      custom_data: { order_name: name },
      payments: [
        {
          id: `${row.Id}-1`,
          method: row['Payment Method'] === 'pix' ? 'pix' : 'credit_card',
          value: money(row.Total!),
        },
      ],
      items: lines.map((line) => ({
        quantity: Number(line['Lineitem quantity']),
        unit_price: money(line['Lineitem price']!),
        product: { title: line['Lineitem name'], sku: line['Lineitem sku'] },
      })),
    });
  }
  return orders;
}

/** Backfills a folder into a fresh sandbox and gives back the orders it holds, by id. */
async function backfillToSandbox(dir: string, mapping: string, ids: readonly string[]) {
  const sandbox = await testSandbox({
    slowMs: 300,
  });
  const run = await runCli(
    ['backfill', dir, '--map', mapping, '--base-url', sandbox.url, '--format', 'json'],
    {
      env,
    },
  );
  const held = new Map<string, unknown>();
  for (const id of ids) {
    const response = await fetch(`${sandbox.url}/_sandbox/orders/${id}`);
    held.set(
      id,
      response.status === 200 ? ((await response.json()) as { order: unknown }).order : response.status,
    );
  }
  return { run, report: JSON.parse(run.stdout), held };
}

/** The mapping with the Excel copy's dialect said once at its top. */
function excelMapping(): string {
  const path = join(tempDir('collect-shopify-'), 'mapping.yaml');
  writeFileSync(
    path,
    readFileSync(MAPPING, 'utf8').replace(
      /^version: 1$/m,
      'version: 1\ncsv: { delimiter: ";", encoding: windows-1252 }',
    ),
  );
  return path;
}

describe('a Shopify export (one row per line item, monthly files) through one mapping', () => {
  const rows = MONTHS.flatMap((file) => rowsOf(join(FIXTURE, file)));
  const expected = expectedOrders(rows);

  it(
    'sends every order of both monthly files whole: items, gross value, payments, split phones and ' +
      'addresses, UTC times',
    async () => {
      expect(expected.size).toBe(6);
      const { run, report, held } = await backfillToSandbox(FIXTURE, MAPPING, [...expected.keys()]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(report.summary).toMatchObject({ records: 6, valid: 6, errors: 0, warnings: 0, accepted: 6 });
      expect(report.files.map((f: { file: string; records: number }) => `${f.file}:${f.records}`)).toEqual(
        MONTHS.map((file) => `${join(FIXTURE, file)}:3`),
      );
      for (const [id, order] of expected) expect(held.get(id), id).toEqual(order);
      // Spot checks of the derivation itself: an evening in -04:00 is the next day in UTC; 45B stays one number.
      expect(held.get('6012345678906')).toMatchObject({ creation_datetime: '2024-07-01T01:30:45Z' });
      expect(held.get('6012345678903')).toMatchObject({
        total_gross_value: 82.4,
        coupon_names: ['FRETEGRATIS', 'INVERNO'],
        user: { phone_country_code: '351', phone_number: '912345678', address: { street_number: '45B' } },
      });
    },
    60_000,
  );

  it('reads the ";"-separated Windows-1252 copy, with csv: said once, into the same records', async () => {
    // The copy is the same export: the same cells once each file is read in its own dialect.
    for (const file of MONTHS)
      expect(rowsOf(join(FIXTURE, 'excel', file), { delimiter: ';', encoding: 'windows-1252' })).toEqual(
        rowsOf(join(FIXTURE, file)),
      );
    expect(readFileSync(join(FIXTURE, 'excel', MONTHS[0]!)).includes(Buffer.from('São'))).toBe(false);
    const { run, held } = await backfillToSandbox(join(FIXTURE, 'excel'), excelMapping(), [
      ...expected.keys(),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    for (const [id, order] of expected) expect(held.get(id), id).toEqual(order);
  }, 60_000);

  it(
    'refuses the ";" copy read as ","-separated: exit 2 naming the file and both delimiters, nothing ' +
      'sent',
    async () => {
      const { code, stdout, stderr } = await runCli([
        'backfill',
        join(FIXTURE, 'excel'),
        '--map',
        MAPPING,
        '--dry-run',
      ]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(
        `${join(FIXTURE, 'excel', MONTHS[0]!)}: its header holds ";" and no ",": it looks ` +
          `";"-separated, but is read as ","-separated`,
      );
      expect(stderr).toContain('csv: { delimiter: ";" }');
    },
  );
});
