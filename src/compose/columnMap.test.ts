import {
  cpSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileRecipe } from '../decode/mappedStage.js';
import { UsageError } from '../core/errors.js';
import { mapEndpointInputs, mapFolderInputs, type MappedInputs } from './columnMap.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const FIXTURE = 'fixtures/marketplace';
const ORDERS_HEADER = readFileSync(`${FIXTURE}/olist_orders_dataset.csv`, 'utf8').split('\n')[0]!;
const opened: MappedInputs[] = [];
const folders: string[] = [];
afterEach(() => {
  while (opened.length) opened.pop()!.close();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});

/**
 * The marketplace export with its orders split into `count` one-row files (orders-NNNNN.csv), read by one
 * glob entry.
 */
function splitExport(count: number): string {
  const dir = tempDir('collect-split-');
  folders.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  rmSync(join(dir, 'olist_orders_dataset.csv'));
  writeFileSync(
    join(dir, 'mapping.yaml'),
    readFileSync(`${FIXTURE}/mapping.yaml`, 'utf8').replaceAll(
      'from: olist_orders_dataset.csv',
      'from: "orders-*.csv"',
    ),
  );
  for (let n = 0; n < count; n++)
    writeFileSync(
      join(dir, `orders-${String(n).padStart(5, '0')}.csv`),
      `${ORDERS_HEADER}\nO${n},C${n},delivered,10/2/2017 10:56,,,,\n`,
    );
  return dir;
}

async function mapSplit(count: number): Promise<MappedInputs> {
  const dir = splitExport(count);
  const mapped = await mapFolderInputs(join(dir, 'mapping.yaml'), dir);
  opened.push(mapped);
  return mapped;
}

describe('a folder of many files through a mapping', () => {
  it(
    'gives each file a recipe that does not grow with the folder: what a worker is sent and compiles ' +
      'per file stays the same',
    async () => {
      // A recipe that held every file and header made each file cost the whole folder: 10,000 files ran out of memory.
      const sizes = async (count: number) =>
        (await mapSplit(count)).inputs.map(
          (input) => JSON.stringify({ ...input.map!.mapping!.recipe!, related: undefined }).length,
        );
      const few = await sizes(3);
      const many = await sizes(60);
      expect(many).toHaveLength(120);
      expect(new Set(many)).toEqual(new Set(few));
    },
  );

  it(
    'notes the columns nothing reads once for every file with the same header, and the files nothing ' +
      'reads',
    async () => {
      const mapped = await mapSplit(40);
      const notes = mapped.inputs.flatMap((input) => input.map!.notes ?? []);
      expect(notes.map((note) => note.code)).toEqual([
        'unread-files',
        'ignored-columns',
        'ignored-columns',
        'ignored-columns',
        'ignored-columns',
      ]);
      expect(notes[0]!.message).toMatch(
        /^nothing in the mapping reads the file "olist_sellers_dataset.csv" of /,
      );
      expect(notes.map((note) => note.message)).toContain(
        'orders-00000.csv and 39 more files (to orders-00039.csv): nothing in the mapping reads ' +
          '"order_approved_at", "order_delivered_carrier_date", "order_delivered_customer_date", ' +
          '"order_estimated_delivery_date"; never sent',
      );
      // The notes are said once, by the input read first.
      expect(mapped.inputs.slice(1).every((input) => input.map!.notes!.length === 0)).toBe(true);
    },
  );

  it('refuses a folder with a file nothing reads under --strict, naming it, before any record is read', async () => {
    const dir = splitExport(2);
    writeFileSync(join(dir, 'orders-extra.tsv'), 'order_id\tx\n');
    const failure = await mapFolderInputs(join(dir, 'mapping.yaml'), dir, true).catch(
      (cause: unknown) => cause,
    );
    expect(failure).toBeInstanceOf(UsageError);
    expect((failure as UsageError).message).toMatch(
      /^nothing in the mapping reads 2 files "olist_sellers_dataset.csv", "orders-extra.tsv" of .*; with --strict/,
    );
  });

  it(
    "compiles each file's entry again from its recipe alone, with the headers of only the files it " +
      'joins',
    async () => {
      const mapped = await mapSplit(5);
      for (const input of mapped.inputs) {
        const { entry, recipe } = input.map!.mapping!;
        // Files of one header share the entry compiled once.
        expect(entry.row).toBe(
          mapped.inputs.find((other) => other.resource === input.resource)!.map!.mapping!.entry.row,
        );
        expect(recipe!.headers.map(([file]) => file).sort()).toEqual(
          (entry.endpoint === 'order'
            ? [
                entry.file,
                'olist_customers_dataset.csv',
                'olist_order_items_dataset.csv',
                'olist_order_payments_dataset.csv',
                'olist_products_dataset.csv',
              ]
            : [entry.file]
          ).sort(),
        );
        const again = compileRecipe(recipe!);
        expect([again.endpoint, again.file, [...again.columnsRead]]).toEqual([
          entry.endpoint,
          entry.file,
          [...entry.columnsRead],
        ]);
      }
    },
  );
});

/** A copy of the worked example inside a parent folder that also holds `outside/`, the mapping's text changed. */
function exportBeside(change: (mapping: string) => string = (text) => text): {
  dir: string;
  outside: string;
} {
  const parent = tempDir('collect-outside-');
  folders.push(parent);
  const dir = join(parent, 'export');
  const outside = join(parent, 'outside');
  cpSync(FIXTURE, dir, { recursive: true });
  mkdirSync(outside);
  writeFileSync(
    join(outside, 'secrets.csv'),
    'customer_id,customer_unique_id,customer_state\n9ef432eb6251297304e76186b10a928d,SECRET,XX\n',
  );
  writeFileSync(join(dir, 'mapping.yaml'), change(readFileSync(`${FIXTURE}/mapping.yaml`, 'utf8')));
  return { dir, outside };
}

/** The usage error (exit 2) a mapped backfill of `dir` stops with, before any record is read. */
async function refusal(dir: string): Promise<string> {
  const failure = await mapFolderInputs(join(dir, 'mapping.yaml'), dir).then(
    (mapped) => {
      opened.push(mapped);
      return undefined;
    },
    (cause: unknown) => cause,
  );
  expect(failure).toBeInstanceOf(UsageError);
  return (failure as UsageError).message;
}

const CUSTOMERS_LOOKUP =
  'lookup: { from: olist_customers_dataset.csv, key: customer_id, column: customer_unique_id }';

describe("files a mapping names outside the inputs' folder", () => {
  it("refuses a lookup whose from: climbs out of the folder, naming the mapping's line", async () => {
    const { dir } = exportBeside((text) =>
      text.replace(
        CUSTOMERS_LOOKUP,
        'lookup: { from: ../outside/secrets.csv, key: customer_id, column: customer_unique_id }',
      ),
    );
    expect(await refusal(dir)).toMatch(
      /mapping\.yaml:14: lookup reads \.\.\/outside\/secrets\.csv: not inside the inputs' folder\n\s+fix: from: names a file inside/,
    );
  });

  it('refuses a list from ../, and an absolute path', async () => {
    const list = exportBeside((text) =>
      text.replace('from: olist_order_payments_dataset.csv', 'from: ../outside/secrets.csv'),
    );
    expect(await refusal(list.dir)).toContain(
      "mapping.yaml:19: the list payments reads ../outside/secrets.csv: not inside the inputs' folder",
    );
    const absolute = exportBeside();
    writeFileSync(
      join(absolute.dir, 'mapping.yaml'),
      readFileSync(join(absolute.dir, 'mapping.yaml'), 'utf8').replace(
        CUSTOMERS_LOOKUP,
        `lookup: { from: "${join(absolute.outside, 'secrets.csv')}", key: customer_id, column: customer_unique_id }`,
      ),
    );
    expect(await refusal(absolute.dir)).toContain("secrets.csv: not inside the inputs' folder");
  });

  it('refuses a symbolic link in the folder whose real path leaves it, naming where it leads', async () => {
    const { dir, outside } = exportBeside();
    rmSync(join(dir, 'olist_customers_dataset.csv'));
    symlinkSync(join(outside, 'secrets.csv'), join(dir, 'olist_customers_dataset.csv'));
    expect(await refusal(dir)).toContain(
      `lookup reads olist_customers_dataset.csv: a symbolic link to ` +
        `${realpathSync(join(outside, 'secrets.csv'))}, outside the inputs' folder`,
    );
    // A link to a folder outside, then down to a file: the real path is what counts, not the text.
    const through = exportBeside((text) =>
      text.replace('from: olist_order_payments_dataset.csv', 'from: elsewhere/secrets.csv'),
    );
    symlinkSync(through.outside, join(through.dir, 'elsewhere'));
    expect(await refusal(through.dir)).toContain(
      'the list payments reads elsewhere/secrets.csv: a symbolic link to',
    );
  });

  it("refuses an entry's file that is a link out of the folder, and a loop of links, without hanging", async () => {
    const entry = exportBeside();
    renameSync(join(entry.dir, 'olist_orders_dataset.csv'), join(entry.outside, 'orders.csv'));
    symlinkSync(join(entry.outside, 'orders.csv'), join(entry.dir, 'olist_orders_dataset.csv'));
    expect(await refusal(entry.dir)).toContain(
      'from: "olist_orders_dataset.csv" matches olist_orders_dataset.csv: a symbolic link to',
    );
    const loop = exportBeside();
    rmSync(join(loop.dir, 'olist_products_dataset.csv'));
    symlinkSync('loop-b.csv', join(loop.dir, 'olist_products_dataset.csv'));
    symlinkSync('olist_products_dataset.csv', join(loop.dir, 'loop-b.csv'));
    expect(await refusal(loop.dir)).toContain(
      'lookup reads olist_products_dataset.csv: a loop of symbolic links',
    );
  });

  it(
    'follows a link that stays inside the folder, and reads the file an endpoint command names ' +
      'wherever it is',
    async () => {
      const { dir, outside } = exportBeside();
      mkdirSync(join(dir, 'monthly'));
      renameSync(join(dir, 'olist_customers_dataset.csv'), join(dir, 'monthly', 'customers.csv'));
      symlinkSync(join('monthly', 'customers.csv'), join(dir, 'olist_customers_dataset.csv'));
      const mapped = await mapFolderInputs(join(dir, 'mapping.yaml'), dir);
      opened.push(mapped);
      expect(mapped.inputs).toHaveLength(2);
      // The user named this file: it is read where it is (its lists and lookups still come from its own folder).
      cpSync(join(dir, 'olist_orders_dataset.csv'), join(outside, 'olist_orders_dataset.csv'));
      const named = await mapEndpointInputs(
        join(dir, 'mapping.yaml'),
        [{ name: join(outside, 'olist_orders_dataset.csv'), format: 'csv', gzip: false }],
        'status',
      );
      opened.push(named);
      expect(named.inputs.map((input) => input.spec.name)).toEqual([
        join(outside, 'olist_orders_dataset.csv'),
      ]);
    },
  );
});
