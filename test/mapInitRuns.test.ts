import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const SHOPIFY = 'fixtures/shopify';
const EXCEL = `${SHOPIFY}/excel`;
const MONTHS = ['orders_export_1.csv', 'orders_export_2.csv'];

/** `collect map init FILES` written to a file, as a user would, then a dry run of DIR through it. */
async function proposeAndRun(dir: string, files: readonly string[]) {
  const proposed = await runCli(['map', 'init', ...files.map((file) => join(dir, file))]);
  expect(proposed.stderr).toBe('');
  expect(proposed.code).toBe(0);
  const path = join(tempDir('collect-map-init-'), 'proposed.yaml');
  writeFileSync(path, proposed.stdout);
  const run = await runCli(['backfill', dir, '--map', path, '--dry-run', '--format', 'json']);
  return { mapping: proposed.stdout, run };
}

describe('a mapping collect map init proposes for a Shopify export', () => {
  it('parses and runs on the ","-separated UTF-8 files, one row per item read from: self', async () => {
    const { mapping, run } = await proposeAndRun(SHOPIFY, MONTHS);
    expect(mapping).toContain('from: self');
    expect(mapping).not.toContain('csv:');
    expect(run.stderr).toBe('');
    expect([0, 1]).toContain(run.code);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ records: 12, errors: 0 });
  });

  it('parses and runs on the ";"-separated Windows-1252 copy, with the csv: it emits', async () => {
    const { mapping, run } = await proposeAndRun(EXCEL, MONTHS);
    expect(mapping).toContain('from: self');
    expect(mapping).toContain('csv: { delimiter: ";", encoding: windows-1252 }');
    expect(run.stderr).toBe('');
    expect([0, 1]).toContain(run.code);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ records: 12, errors: 0 });
  });

  it(
    'proposed from one month of the copy, runs on the folder: the other month is an unread file, not ' +
      'a wrong dialect',
    async () => {
      const { run } = await proposeAndRun(EXCEL, [MONTHS[1]!]);
      expect(run.stderr).toBe('');
      expect([0, 1]).toContain(run.code);
      const report = JSON.parse(run.stdout);
      expect(report.summary).toMatchObject({ records: 6, errors: 0 });
      const unread = report.notes.filter((note: { code: string }) => note.code === 'unread-files');
      expect(unread).toHaveLength(1);
      expect(unread[0].message).toContain(`the file "${MONTHS[0]}" of ${EXCEL}`);
    },
  );
});
