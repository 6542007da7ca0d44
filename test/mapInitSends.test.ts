import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'sk_test_map_init' };

/** What the service's models read of an order, as it was sent: its creation time, status, customer and items. */
interface Facts {
  creation_datetime?: string;
  status?: string;
  email?: string;
  phone?: string;
  items?: unknown;
}

/** The export in DIR sent through MAPPING to a recording service: each order's facts, by id. */
async function sent(dir: string, mapping: string): Promise<Record<string, Facts>> {
  const server = await startServer(() => ({ status: 200, body: { message: 'ok' } }));
  const run = await runCli(
    ['backfill', dir, '--map', mapping, '--base-url', server.url, '--format', 'json'],
    {
      env,
    },
  );
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout).summary).toMatchObject({ errors: 0, failed: 0, rejected: 0 });
  const facts: Record<string, Facts> = {};
  for (const request of server.requests) {
    if (request.path.includes('delivery')) continue;
    const body = JSON.parse(request.body);
    const order = (facts[body.id] ??= {});
    // The status arrives on the order (a hand-written mapping may put it there) or as a status update.
    if (body.status !== undefined) order.status = body.status;
    if (request.method !== 'POST') continue;
    Object.assign(order, {
      creation_datetime: body.creation_datetime,
      email: body.user?.email,
      phone: body.user && `+${body.user.phone_country_code} ${body.user.phone_number}`,
      // An item as the service's models read it (the proposal also keeps the vendor in custom_data).
      items: body.items?.map((item: { quantity: number; unit_price: number; product: unknown }) => ({
        quantity: item.quantity,
        unit_price: item.unit_price,
        product: item.product,
      })),
    });
  }
  await server.close();
  return facts;
}

/** `collect map init FILES` written to a file as proposed, untouched. */
async function proposed(files: readonly string[]): Promise<string> {
  const run = await runCli(['map', 'init', ...files]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const path = join(tempDir('collect-map-init-'), 'proposed.yaml');
  writeFileSync(path, run.stdout);
  return path;
}

/** A copy of a fixture folder without its mapping, so the run reads only the export. */
function exportOnly(dir: string): string {
  const copy = tempDir('collect-export-');
  cpSync(dir, copy, { recursive: true, filter: (path) => !path.endsWith('.yaml') });
  return copy;
}

describe('the mapping map init proposes, used as proposed, sends what the hand-written one sends', () => {
  it("on the repository's Shopify export", async () => {
    const dir = exportOnly('fixtures/shopify');
    const mapping = await proposed([join(dir, 'orders_export_1.csv'), join(dir, 'orders_export_2.csv')]);
    const byHand = await sent(dir, 'fixtures/shopify/mapping.yaml');
    expect(Object.keys(byHand)).toHaveLength(6);
    expect(await sent(dir, mapping)).toEqual(byHand);
  });

  it("on a Shopify export with every column of source-files.md's header (79, repeated and empty ones)", async () => {
    const dir = exportOnly('fixtures/shopify-export');
    const mapping = await proposed([join(dir, 'orders_export.csv')]);
    const text = readFileSync(mapping, 'utf8');
    // The customer's e-mail is never a seller's; a vendor is no seller; empty columns are listed, not proposed.
    expect(text).not.toMatch(/seller/);
    expect(text).toMatch(/# empty in the sample: .*"Billing Company"/);
    expect(text).toContain(
      'creation_datetime: { column: "Created at", datetime: iso }   # from the header "Created at" ' +
        'and values like 2024-05-11 09:55:16 -0300',
    );
    const byHand = await sent(dir, 'fixtures/shopify/mapping.yaml');
    expect(Object.keys(byHand)).toHaveLength(5);
    expect(byHand['6012345678903']).toMatchObject({ status: 'cancelled', phone: '+351 912345678' });
    expect(await sent(dir, mapping)).toEqual(byHand);
  });

  it("on the marketplace's order, item, payment and customer files (an Excel copy)", async () => {
    const dir = exportOnly('fixtures/marketplace');
    const mapping = await proposed(
      ['orders', 'order_items', 'order_payments', 'customers', 'products', 'sellers'].map((name) =>
        join(dir, `olist_${name}_dataset.csv`),
      ),
    );
    expect(readFileSync(mapping, 'utf8')).toContain('zone: America/Sao_Paulo');
    const byHand = await sent(dir, 'fixtures/marketplace/mapping.yaml');
    expect(Object.keys(byHand)).toHaveLength(6);
    expect(await sent(dir, mapping)).toEqual(byHand);
  });

  it('on the marketplace files as published (yyyy-MM-dd HH:mm:ss)', async () => {
    const dir = exportOnly('fixtures/marketplace-export');
    const mapping = await proposed(
      ['orders', 'order_items', 'order_payments', 'customers', 'products'].map((name) =>
        join(dir, `olist_${name}_dataset.csv`),
      ),
    );
    expect(readFileSync(mapping, 'utf8')).toContain('datetime: "yyyy-MM-dd HH:mm:ss"');
    // The hand-written mapping reads the Excel copy's pattern: the same mapping with the published one.
    const byHand = join(dir, 'by-hand.yaml');
    writeFileSync(
      byHand,
      readFileSync('fixtures/marketplace/mapping.yaml', 'utf8').replace(
        '"M/d/yyyy H:mm"',
        '"yyyy-MM-dd HH:mm:ss"',
      ),
    );
    const expected = await sent(dir, byHand);
    expect(Object.keys(expected)).toHaveLength(6);
    expect(await sent(dir, mapping)).toEqual(expected);
  });
});
