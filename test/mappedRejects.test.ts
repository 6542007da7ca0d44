import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

// One row per line item (the order's own columns on its first row only), its payments in a file of their own.
const ORDERS = `Name,Email,Created at,Total,Lineitem quantity,Lineitem price,Lineitem sku
#1001,ana@example.com,2023-05-11 09:55:16 -0400,80.00,1,10.00,SKU-1
#1001,,,,2,10.00,SKU-2
#1001,,,,1,2O.00,SKU-3
#1001,,,,1,30.00,SKU-4
#1002,bo@example.com,2023-05-12 10:00:00 -0400,5.00,1,5.00,SKU-5
`;
const PAYMENTS = `Order,Kind,Amount
#1001,card,80.00
#1002,card,5.00
`;
const MAPPING = `version: 1
records:
  - endpoint: order
    from: orders_export.csv
    when: { column: Email, present: true }
    fields:
      id: Name
      evaluate: { value: false }
      currency: { value: USD }
      creation_datetime: { column: "Created at", datetime: iso }
      user.id: Email
      total_paid_value: { sum: payments.value }
    lists:
      items:
        from: orders_export.csv
        key: Name
        fields:
          quantity: "Lineitem quantity"
          unit_price: { column: "Lineitem price", number: decimal-point }
          product.product_id: "Lineitem sku"
      payments:
        from: payments.csv
        key: { parent: Name, child: Order }
        fields:
          id: { template: "{Order}-{Kind}" }
          method: { value: credit_card }
          value: { column: Amount, number: decimal-point }
`;

describe('rejects of a mapped record', () => {
  it('hold every source row that built it, so the fixed folder fed back sends the order whole', async () => {
    const root = tempDir('collect-mapped-rejects-');
    const exported = join(root, 'export');
    mkdirSync(exported);
    writeFileSync(join(exported, 'orders_export.csv'), ORDERS);
    writeFileSync(join(exported, 'payments.csv'), PAYMENTS);
    const mapping = join(root, 'mapping.yaml');
    writeFileSync(mapping, MAPPING);
    const sandbox = await testSandbox();
    const env = { COLLECT_API_KEY: 'sk_test_mapped_rejects' };
    const held = async (id: string) => {
      const response = await fetch(`${sandbox.url}/_sandbox/orders/${encodeURIComponent(id)}`);
      return response.status === 200 ? ((await response.json()) as Record<string, unknown>) : undefined;
    };
    const rejects = join(root, 'rejects');
    const first = await runCli(
      [
        'backfill',
        exported,
        '--map',
        mapping,
        '--base-url',
        sandbox.url,
        '--rejects',
        rejects,
        '--format',
        'json',
      ],
      { env },
    );
    expect(first.code).toBe(1);
    expect(await held('#1002')).toBeDefined();
    expect(await held('#1001')).toBeUndefined();

    // Every row of the order: its own, its three other items', its payment's, each in a file named after its source.
    expect(readdirSync(rejects).sort()).toEqual(['orders_export.csv', 'payments.csv']);
    const orders = readFileSync(join(rejects, 'orders_export.csv'), 'utf8').trim().split('\n');
    expect(orders[0]).toBe(
      'Name,Email,Created at,Total,Lineitem quantity,Lineitem price,Lineitem sku,collect_reason',
    );
    expect(orders.slice(1).map((row) => row.split(',').slice(0, 7).join(','))).toEqual(
      ORDERS.trim().split('\n').slice(1, 5),
    );
    expect(orders[3]).toContain('items.2.unit_price');
    const payments = readFileSync(join(rejects, 'payments.csv'), 'utf8').trim().split('\n');
    expect(payments).toHaveLength(2);
    expect(payments[1]).toMatch(/^#1001,card,80.00,"?part of the record of orders_export.csv line 2/);

    // Fixed where it is wrong, fed back with the same mapping: the order arrives with its four items.
    writeFileSync(
      join(rejects, 'orders_export.csv'),
      readFileSync(join(rejects, 'orders_export.csv'), 'utf8').replace(',2O.00,SKU-3,', ',20.00,SKU-3,'),
    );
    const again = await runCli(
      ['backfill', rejects, '--map', mapping, '--base-url', sandbox.url, '--format', 'json'],
      { env },
    );
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).summary).toMatchObject({ records: 1, valid: 1, accepted: 1 });
    const order = await held('#1001');
    expect(JSON.stringify(order)).toContain('SKU-4');
    expect(order).toMatchObject({
      order: expect.objectContaining({
        id: '#1001',
        total_paid_value: 80,
        items: [
          { quantity: 1, unit_price: 10, product: { product_id: 'SKU-1' } },
          { quantity: 2, unit_price: 10, product: { product_id: 'SKU-2' } },
          { quantity: 1, unit_price: 20, product: { product_id: 'SKU-3' } },
          { quantity: 1, unit_price: 30, product: { product_id: 'SKU-4' } },
        ],
      }),
    });
  }, 60_000);
});
