import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileRecipe } from '../readers/mappedStage.js';
import { mapFolderInputs, type MappedInputs } from './columnMap.js';

const FIXTURE = 'fixtures/marketplace';
const ORDERS_HEADER = readFileSync(`${FIXTURE}/olist_orders_dataset.csv`, 'utf8').split('\n')[0]!;
const opened: MappedInputs[] = [];
const folders: string[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

/** The marketplace export with its orders split into `count` one-row files (orders-NNNNN.csv), read by one glob entry. */
function splitExport(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'collect-split-'));
  folders.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  rmSync(join(dir, 'olist_orders_dataset.csv'));
  writeFileSync(join(dir, 'mapping.yaml'), readFileSync(`${FIXTURE}/mapping.yaml`, 'utf8').replaceAll('from: olist_orders_dataset.csv', 'from: "orders-*.csv"'));
  for (let n = 0; n < count; n++) writeFileSync(join(dir, `orders-${String(n).padStart(5, '0')}.csv`), `${ORDERS_HEADER}\nO${n},C${n},delivered,10/2/2017 10:56,,,,\n`);
  return dir;
}

async function mapSplit(count: number): Promise<MappedInputs> {
  const dir = splitExport(count);
  const mapped = await mapFolderInputs(join(dir, 'mapping.yaml'), dir);
  opened.push(mapped);
  return mapped;
}

describe('a folder of many files through a mapping', () => {
  it('gives each file a recipe that does not grow with the folder: what a worker is sent and compiles per file stays the same', async () => {
    // A recipe that held every file and header made each file cost the whole folder: 10,000 files ran out of memory.
    const sizes = async (count: number) => (await mapSplit(count)).inputs.map((input) => JSON.stringify({ ...input.map!.mapping!.recipe!, related: undefined }).length);
    const few = await sizes(3);
    const many = await sizes(60);
    expect(many).toHaveLength(120);
    expect(new Set(many)).toEqual(new Set(few));
  });

  it('notes the columns nothing reads once for every file with the same header', async () => {
    const mapped = await mapSplit(40);
    expect(mapped.inputs.flatMap((input) => input.map!.notes ?? []).map((note) => note.message)).toEqual([
      'orders-00000.csv and 39 more files (to orders-00039.csv): no mapping entry reads "order_approved_at", "order_delivered_carrier_date", "order_delivered_customer_date", "order_estimated_delivery_date"; never sent',
    ]);
  });

  it('compiles each file\'s entry again from its recipe alone, with the headers of only the files it joins', async () => {
    const mapped = await mapSplit(5);
    for (const input of mapped.inputs) {
      const { entry, recipe } = input.map!.mapping!;
      // Files of one header share the entry compiled once.
      expect(entry.row).toBe(mapped.inputs.find((other) => other.resource === input.resource)!.map!.mapping!.entry.row);
      expect(recipe!.headers.map(([file]) => file).sort()).toEqual(
        (entry.endpoint === 'order'
          ? [entry.file, 'olist_customers_dataset.csv', 'olist_order_items_dataset.csv', 'olist_order_payments_dataset.csv', 'olist_products_dataset.csv']
          : [entry.file]).sort(),
      );
      const again = compileRecipe(recipe!);
      expect([again.endpoint, again.file, [...again.columnsRead]]).toEqual([entry.endpoint, entry.file, [...entry.columnsRead]]);
    }
  });
});
