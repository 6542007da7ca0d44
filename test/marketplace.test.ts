import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const FIXTURE = 'fixtures/marketplace';
const MAPPING = `${FIXTURE}/mapping.yaml`;
const env = { COLLECT_API_KEY: 'sk_test_marketplace' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A copy of the worked example, with some files replaced. */
function exportCopy(changes: Record<string, (text: string) => string> = {}): string {
  const dir = tempDir('collect-marketplace-');
  cpSync(FIXTURE, dir, { recursive: true });
  for (const [name, change] of Object.entries(changes))
    writeFileSync(join(dir, name), change(readFileSync(join(dir, name), 'utf8')));
  return dir;
}

describe('the marketplace export through its mapping', () => {
  it(
    'checks the raw export: orders with their payments and items, statuses mapped, ignored columns ' +
      'noted once',
    async () => {
      const { code, stdout } = await runCli([
        'backfill',
        FIXTURE,
        '--map',
        MAPPING,
        '--dry-run',
        '--format',
        'json',
      ]);
      const report = JSON.parse(stdout);
      expect(code).toBe(0);
      expect(report.summary).toMatchObject({ records: 11, valid: 11, errors: 0, warnings: 0 });
      expect(
        report.files.map((f: { endpoint: string; records: number }) => `${f.endpoint}:${f.records}`),
      ).toEqual(['order:6', 'status:5']);
      // Every file and column nothing reads is said once: the sellers' file, and the columns of each file read.
      expect(report.notes).toEqual([
        {
          code: 'unread-files',
          message: expect.stringMatching(
            /^nothing in the mapping reads the file "olist_sellers_dataset.csv" of /,
          ),
        },
        ...[
          'olist_orders_dataset.csv: nothing in the mapping reads "order_approved_at", ' +
            '"order_delivered_carrier_date", "order_delivered_customer_date", ' +
            '"order_estimated_delivery_date"; never sent',
          'olist_order_items_dataset.csv: nothing in the mapping reads "order_item_id", ' +
            '"shipping_limit_date", "freight_value"; never sent',
          'olist_products_dataset.csv: nothing in the mapping reads "product_name_lenght", ' +
            '"product_description_lenght", "product_photos_qty", "product_weight_g"; never sent',
          'olist_customers_dataset.csv: nothing in the mapping reads "customer_zip_code_prefix", ' +
            '"customer_city"; never sent',
        ].map((message) => ({ code: 'ignored-columns', message })),
      ]);
    },
  );

  it('sends only the mapped fields, local times as UTC, in flow order', async () => {
    const server = await startServer(() => ({ status: 200, body: { message: 'ok' } }));
    closers.push(server.close);
    const { code } = await runCli(
      ['backfill', FIXTURE, '--map', MAPPING, '--base-url', server.url, '--format', 'json'],
      { env },
    );
    expect(code).toBe(0);
    const bodies = server.requests.map((request) => `${request.method} ${request.path} ${request.body}`);
    expect(bodies).toHaveLength(11);
    const first = JSON.parse(
      server.requests.find(
        (request) => request.body.includes('"e481f51cbdc54678b7cc49136f2d6af7"') && request.method === 'POST',
      )!.body,
    );
    expect(first).toEqual({
      id: 'e481f51cbdc54678b7cc49136f2d6af7',
      evaluate: false,
      currency: 'BRL',
      creation_datetime: '2017-10-02T13:56:00Z',
      user: { id: '7c396fd4830fd04220f754e42b4e5bff' },
      total_paid_value: 38.71,
      custom_data: { customer_state: 'SP' },
      payments: [
        { id: 'e481f51cbdc54678b7cc49136f2d6af7-1', method: 'credit_card', installments: 1, value: 18.12 },
        { id: 'e481f51cbdc54678b7cc49136f2d6af7-3', method: 'voucher', installments: 1, value: 2 },
        { id: 'e481f51cbdc54678b7cc49136f2d6af7-2', method: 'voucher', installments: 1, value: 18.59 },
      ],
      items: [
        {
          quantity: 1,
          unit_price: 29.99,
          product: {
            product_id: '87285b34884572647811a353c7ac498a',
            categories: ['utilidades_domesticas'],
            seller: { id: '3504c0cb71d7fa48d967e0e4c94d59d9' },
          },
        },
      ],
    });
    expect(bodies.some((body) => body.includes('order_status') || body.includes('order_approved_at'))).toBe(
      false,
    );
    expect(
      bodies
        .filter((body) => body.startsWith('PUT /v2/order '))
        .map((body) => JSON.parse(body.slice(body.indexOf('{'))).status)
        .sort(),
    ).toEqual(['approved', 'approved', 'approved', 'cancelled', 'pending']);
    // Each order's creation before its status.
    for (const [position, body] of bodies.entries()) {
      if (!body.startsWith('PUT')) continue;
      const id = JSON.parse(body.slice(body.indexOf('{'))).id as string;
      expect(
        bodies.findIndex((other) => other.startsWith('POST') && other.includes(`"id":"${id}"`)),
      ).toBeLessThan(position);
    }
  });

  it(
    'names the source file and line of the row, and of the child row, and writes rejects that the ' +
      'same mapping reads back',
    async () => {
      const dir = exportCopy({
        'olist_order_payments_dataset.csv': (text) => text.replace('boleto,1,141.46', 'boleto,1,"141,46"'),
      });
      const rejects = tempDir('collect-marketplace-rejects-');
      const { code, stdout } = await runCli([
        'backfill',
        dir,
        '--map',
        join(dir, 'mapping.yaml'),
        '--dry-run',
        '--format',
        'json',
        '--rejects',
        rejects,
      ]);
      expect(code).toBe(1);
      const report = JSON.parse(stdout);
      expect(report.issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            code: 'invalid-number',
            path: 'payments.0.value',
            file: join(dir, 'olist_orders_dataset.csv'),
            line: 3,
            child: { file: 'olist_order_payments_dataset.csv', line: 4 },
          }),
        ]),
      );
      // Every row the order was built from, each in a file named after its source: its own, its payment's, its
      // item's, its customer's and product's.
      const rows = (name: string) =>
        readFileSync(join(rejects, name), 'utf8')
          .split('\n')
          .filter((line) => line !== '');
      expect(readdirSync(rejects).sort()).toEqual([
        'olist_customers_dataset.csv',
        'olist_order_items_dataset.csv',
        'olist_order_payments_dataset.csv',
        'olist_orders_dataset.csv',
        'olist_products_dataset.csv',
      ]);
      const orders = rows('olist_orders_dataset.csv');
      expect(orders[0]).toMatch(
        /^order_id,customer_id,order_status,order_purchase_timestamp,.*,collect_reason$/,
      );
      expect(orders[1]).toMatch(
        /^53cdb2fc8bc7dce0b6741e2150273451,b0830fb4747a6c6d20dea0b8c802d7ef,delivered,7\/24\/2018 20:41,/,
      );
      expect(orders).toHaveLength(2);
      expect(rows('olist_order_payments_dataset.csv').slice(1)).toEqual([
        expect.stringMatching(/^53cdb2fc8bc7dce0b6741e2150273451,1,boleto,1,"141,46",/),
      ]);
      expect(rows('olist_order_items_dataset.csv')).toHaveLength(2);
      // Fixed where it is wrong (the payment) and fed back: the rejects folder through the same mapping.
      writeFileSync(
        join(rejects, 'olist_order_payments_dataset.csv'),
        readFileSync(join(rejects, 'olist_order_payments_dataset.csv'), 'utf8').replace(
          'boleto,1,"141,46"',
          'boleto,1,141.46',
        ),
      );
      const again = await runCli([
        'backfill',
        rejects,
        '--map',
        join(dir, 'mapping.yaml'),
        '--dry-run',
        '--format',
        'json',
      ]);
      expect(again.code).toBe(0);
      const fedBack = JSON.parse(again.stdout);
      expect(fedBack.summary).toMatchObject({ records: 2, valid: 2, errors: 0 });
      expect(fedBack.notes.map((note: { code: string }) => note.code)).not.toContain('unread-files');
    },
    60_000,
  );

  it('refuses a mistaken mapping before reading any record: exit 2, the mapping line and a did-you-mean', async () => {
    const dir = exportCopy({
      'mapping.yaml': (text) =>
        text
          .replace('column: order_purchase_timestamp', 'column: order_purchase_timestmp')
          .replace('total_paid_value:', 'total_paid_valeu:'),
    });
    const { code, stdout, stderr } = await runCli([
      'backfill',
      dir,
      '--map',
      join(dir, 'mapping.yaml'),
      '--dry-run',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      `${join(dir, 'mapping.yaml')}:13: the column "order_purchase_timestmp" is not in the header ` +
        `of olist_orders_dataset.csv`,
    );
    expect(stderr).toContain('did you mean "order_purchase_timestamp"?');
    expect(stderr).toContain(
      `${join(dir, 'mapping.yaml')}:15: the target total_paid_valeu is not a field the service knows`,
    );
  });

  it("never reads a file outside the export's folder: a lookup from ../ is exit 2, nothing sent", async () => {
    const parent = tempDir('collect-beside-');
    const dir = join(parent, 'export');
    cpSync(FIXTURE, dir, { recursive: true });
    writeFileSync(
      join(dir, 'mapping.yaml'),
      readFileSync(MAPPING, 'utf8').replace(
        'from: olist_customers_dataset.csv, key: customer_id',
        'from: ../outside/customers.csv, key: customer_id',
      ),
    );
    mkdirSync(join(parent, 'outside'));
    writeFileSync(
      join(parent, 'outside', 'customers.csv'),
      'customer_id,customer_unique_id\n9ef432eb6251297304e76186b10a928d,SECRET-FROM-OUTSIDE\n',
    );
    const server = await startServer(() => ({ status: 200, body: { message: 'ok' } }));
    closers.push(server.close);
    const { code, stderr } = await runCli(
      ['backfill', dir, '--map', join(dir, 'mapping.yaml'), '--base-url', server.url],
      { env },
    );
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${join(dir, 'mapping.yaml')}:14: lookup reads ../outside/customers.csv: not inside the inputs' folder`,
    );
    expect(server.requests).toEqual([]);
  });

  it(
    'takes the old flat JSON map on an endpoint command: one column to two fields, unknown columns ' +
      'not sent',
    async () => {
      const dir = tempDir('collect-flat-');
      writeFileSync(
        join(dir, 'export.csv'),
        'Order Number,total_paid_value,Financial Status\nO1,10.50,paid\n',
      );
      writeFileSync(
        join(dir, 'map.json'),
        '{"id": "Order Number", "custom_data.order_number": "Order Number"}',
      );
      const server = await startServer(() => ({ status: 200, body: { message: 'ok' } }));
      closers.push(server.close);
      const { code } = await runCli(
        ['order', join(dir, 'export.csv'), '--map', join(dir, 'map.json'), '--base-url', server.url],
        { env },
      );
      expect(code).toBe(0);
      expect(JSON.parse(server.requests[0]!.body)).toEqual({
        id: 'O1',
        total_paid_value: 10.5,
        custom_data: { order_number: 'O1' },
      });
    },
  );

  it('runs a --transform module after the mapping, for what a mapping cannot say', async () => {
    const dir = exportCopy();
    writeFileSync(
      join(dir, 'transform.mjs'),
      "export default (record) => (record.status === 'pending' ? null : { ...record, custom_data: " +
        "{ ...record.custom_data, source: 'olist' } });\n",
    );
    const { code, stdout } = await runCli([
      'backfill',
      dir,
      '--map',
      join(dir, 'mapping.yaml'),
      '--transform',
      join(dir, 'transform.mjs'),
      '--dry-run',
      '--format',
      'json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).summary.records).toBe(10);
    const broken = await runCli([
      'backfill',
      dir,
      '--map',
      join(dir, 'mapping.yaml'),
      '--transform',
      join(dir, 'missing.mjs'),
      '--dry-run',
    ]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('--transform');
  }, 60_000);
});

/**
 * The worked example's orders, payments and items repeated `copies` times under new order ids: an export
 * large enough for the piece workers.
 */
function largeExport(
  copies: number,
  change: (file: string, copy: number, row: string) => string = (_f, _c, row) => row,
): string {
  const dir = exportCopy();
  const ids = readFileSync(join(dir, 'olist_orders_dataset.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((row) => row.split(',')[0]!);
  for (const file of [
    'olist_orders_dataset.csv',
    'olist_order_payments_dataset.csv',
    'olist_order_items_dataset.csv',
  ]) {
    const [header, ...rows] = readFileSync(join(dir, file), 'utf8').trim().split('\n');
    const out = [header];
    for (let copy = 0; copy < copies; copy++) {
      const suffix = copy.toString(16).padStart(6, '0');
      for (const row of rows)
        out.push(
          change(
            file,
            copy,
            ids.reduce((text, id) => text.replaceAll(id, `${id.slice(0, -6)}${suffix}`), row),
          ),
        );
    }
    writeFileSync(join(dir, file), `${out.join('\n')}\n`);
  }
  return dir;
}

describe('a large mapped export, mapped and checked on the piece workers', () => {
  it(
    'reports what mapping every row on the reading thread reports: the same records, issues, files ' +
      'and lines',
    async () => {
      // 400 copies: about 480 KB of orders, past what the reading thread parses alone; three rows broken on purpose.
      const dir = largeExport(400, (file, copy, row) => {
        if (file === 'olist_orders_dataset.csv' && copy === 100 && row.includes('10/2/2017 10:56'))
          return row.replace('10/2/2017 10:56', '10/2/2017 10:5x');
        if (file === 'olist_orders_dataset.csv' && copy === 300 && row.includes('7/24/2018 20:41'))
          return row.split(',').slice(0, -1).join(',');
        if (file === 'olist_order_payments_dataset.csv' && copy === 200 && row.endsWith(',18.12'))
          return row.replace(',18.12', ',18.1x');
        return row;
      });
      const mapping = join(dir, 'mapping.yaml');
      const onWorkers = await runCli([
        'backfill',
        dir,
        '--map',
        mapping,
        '--dry-run',
        '--format',
        'json',
        '--no-state',
      ]);
      // --rejects needs each record as written: every row is then mapped on the reading thread.
      const onReader = await runCli([
        'backfill',
        dir,
        '--map',
        mapping,
        '--dry-run',
        '--format',
        'json',
        '--no-state',
        '--rejects',
        join(dir, 'rejects.csv'),
      ]);
      const [workers, reader] = [JSON.parse(onWorkers.stdout), JSON.parse(onReader.stdout)];
      expect(onWorkers.code).toBe(1);
      // The three broken orders' status updates are held with them (order-invalid).
      expect(workers.summary).toMatchObject({ records: 400 * 11, invalid: 6 });
      expect(workers.issues.filter((issue: { code: string }) => issue.code === 'order-invalid')).toHaveLength(
        3,
      );
      expect(workers.summary).toEqual(reader.summary);
      expect(workers.issues).toEqual(reader.issues);
      expect(workers.files).toEqual(reader.files);
      // The broken payment is located in its own file, on its own line (copy 200's first payment row: 1 + 200 * 8 + 1).
      expect(workers.issues).toContainEqual(
        expect.objectContaining({
          code: 'invalid-number',
          path: 'payments.0.value',
          child: { file: 'olist_order_payments_dataset.csv', line: 1602 },
        }),
      );
    },
  );
});
