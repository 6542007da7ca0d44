import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const EXCEL = 'fixtures/shopify/excel';
const FILE = 'orders_export_1.csv';
const env = { COLLECT_API_KEY: 'sk_test_rejects_dialect' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** The fixture's mapping with the Excel copy's dialect said once at its top. */
function excelMapping(root: string): string {
  const path = join(root, 'mapping.yaml');
  writeFileSync(
    path,
    readFileSync('fixtures/shopify/mapping.yaml', 'utf8').replace(
      /^version: 1$/m,
      'version: 1\ncsv: { delimiter: ";", encoding: windows-1252 }',
    ),
  );
  return path;
}

const cp1252 = (bytes: Buffer) => new TextDecoder('windows-1252').decode(bytes);
const asCp1252 = (text: string) => Buffer.from(text, 'latin1'); // the texts below hold no 0x80-0x9f characters

async function sandbox() {
  const started = await testSandbox();
  const held = async (id: string) => {
    const response = await fetch(`${started.url}/_sandbox/orders/${id}`);
    return response.status === 200 ? ((await response.json()) as { order: unknown }).order : undefined;
  };
  return { url: started.url, held };
}

/**
 * A copy of the Excel folder's first month whose order #1003 has one bad item cell ("3O.00", its second
 * item's price).
 */
function brokenCopy(root: string, name = FILE): string {
  const dir = join(root, 'export');
  mkdirSync(dir);
  const text = cp1252(readFileSync(join(EXCEL, FILE)));
  expect(text).toContain(';30.00;BON-05;');
  writeFileSync(join(dir, name), asCp1252(text.replace(';30.00;BON-05;', ';3O.00;BON-05;')));
  return dir;
}

describe('rejects of a mapped record read from a ";"-separated Windows-1252 file', () => {
  it(
    "are written in the file's own dialect, so the fixed folder fed back with the same mapping sends " +
      'the order whole',
    async () => {
      const root = tempDir('collect-rejects-dialect-');
      const mapping = excelMapping(root);
      const exported = brokenCopy(root);
      const rejects = join(root, 'rejects');
      const service = await sandbox();
      const first = await runCli(
        ['backfill', exported, '--map', mapping, '--base-url', service.url, '--rejects', rejects],
        { env },
      );
      expect(first.code).toBe(1);
      expect(await service.held('6012345678903')).toBeUndefined();
      expect(await service.held('6012345678901')).toBeDefined();

      // The order's three rows, ";"-separated and in Windows-1252 as the source, quotes and all.
      expect(readdirSync(rejects)).toEqual([FILE]);
      const bytes = readFileSync(join(rejects, FILE));
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
      const lines = cp1252(bytes).trim().split('\n');
      expect(lines[0]).toBe(`${cp1252(readFileSync(join(EXCEL, FILE))).split('\r\n')[0]};collect_reason`);
      expect(lines).toHaveLength(4);
      expect(lines[1]).toContain(';Maria Gonçalves;Rua das Flores, 45B;');
      expect(lines[2]).toMatch(/^#1003;(;){12}1;"Boné ""Clássico""";3O\.00;BON-05;.*items\.1\.unit_price/);
      expect(lines[3]).toMatch(/^#1003;(;){12}2;"Chaveiro; Metal";7\.45;CHA-06;/);

      // Fixed where it is wrong (as Excel would save it), fed back with the SAME mapping.
      writeFileSync(join(rejects, FILE), asCp1252(cp1252(bytes).replace(';3O.00;', ';30.00;')));
      const again = await runCli(
        ['backfill', rejects, '--map', mapping, '--base-url', service.url, '--format', 'json'],
        { env },
      );
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout).summary).toMatchObject({ records: 1, valid: 1, accepted: 1 });

      // Exactly what the unbroken export sends.
      const clean = await sandbox();
      const whole = join(root, 'clean');
      mkdirSync(whole);
      copyFileSync(join(EXCEL, FILE), join(whole, FILE));
      expect(
        (await runCli(['backfill', whole, '--map', mapping, '--base-url', clean.url], { env })).code,
      ).toBe(0);
      const expected = await clean.held('6012345678903');
      expect(expected).toMatchObject({ items: [{}, {}, {}], user: { address: { city: 'Porto' } } });
      expect(await service.held('6012345678903')).toEqual(expected);
    },
    60_000,
  );

  it(
    'writes a character of the reasons that Windows-1252 cannot hold as ?, keeping the file in its ' +
      'dialect',
    async () => {
      const root = tempDir('collect-rejects-dialect-');
      const mapping = excelMapping(root);
      const name = 'orders_export_東京.csv';
      const exported = brokenCopy(root, name);
      const rejects = join(root, 'rejects');
      const run = await runCli(['backfill', exported, '--map', mapping, '--dry-run', '--rejects', rejects]);
      expect(run.code).toBe(1);
      const lines = cp1252(readFileSync(join(rejects, name)))
        .trim()
        .split('\n');
      expect(lines).toHaveLength(4);
      expect(lines[2]).toContain('Clássico');
      expect(lines[2]).toContain(';"part of the record of orders_export_??.csv line 5, rejected: ');
      const back = await runCli(['backfill', rejects, '--map', mapping, '--dry-run', '--format', 'json']);
      expect(back.code).toBe(1);
      expect(JSON.parse(back.stdout).summary).toMatchObject({ records: 1, invalid: 1 });
    },
    60_000,
  );
});
