import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

/**
 * Orders as Parquet columns (a TIMESTAMP, a DOUBLE, a dotted name, a null id and a bad total among them) and
 * as the same CSV rows.
 */
const rows = Array.from({ length: 7 }, (_, n) => ({
  id: n === 2 ? null : `ORD-${n}`,
  created: new Date(Date.UTC(2024, 2, 1, 10, n)),
  total: n === 4 ? -3 : 10.5 + n,
  user: `C-${n}`,
}));

function ordersParquet(path: string, rowGroupSize = 3): void {
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'id', data: rows.map((row) => row.id), type: 'STRING' },
      { name: 'creation_datetime', data: rows.map((row) => row.created), type: 'TIMESTAMP' },
      { name: 'total_paid_value', data: rows.map((row) => row.total), type: 'DOUBLE' },
      { name: 'user.id', data: rows.map((row) => row.user), type: 'STRING' },
    ],
    rowGroupSize,
  });
  writeFileSync(path, Buffer.from(buffer));
}

const ordersCsv = [
  'id,creation_datetime,total_paid_value,user.id',
  ...rows.map((row) =>
    [row.id ?? '', row.created.toISOString().replace('.000Z', 'Z'), row.total, row.user].join(','),
  ),
].join('\n');

/** A report without its file names, each location made a row number (a CSV's line less its header's). */
function located(report: string, file: string, header: number): unknown {
  return JSON.parse(report, function (key, value: unknown) {
    if (typeof value === 'string') return value.split(file).join('FILE');
    if (key === 'line' && typeof value === 'number') return value - header;
    return value;
  });
}

describe('Parquet input', () => {
  it('gives the same report as the same rows in CSV, its row numbers as locations', async () => {
    const dir = tempDir('collect-parquet-');
    ordersParquet(join(dir, 'orders.parquet'));
    writeFileSync(join(dir, 'orders.csv'), ordersCsv);
    const run = (file: string) =>
      runCli(['order', join(dir, file), '--dry-run', '--no-state', '--format', 'json']);
    const [parquet, csv] = [await run('orders.parquet'), await run('orders.csv')];
    expect(parquet.code).toBe(1);
    expect(csv.code).toBe(1);
    expect(located(parquet.stdout, join(dir, 'orders.parquet'), 0)).toEqual(
      located(csv.stdout, join(dir, 'orders.csv'), 1),
    );
    expect(JSON.stringify(JSON.parse(parquet.stdout))).toContain('"line":3');
  });

  it('writes its rejects as CSV rows, read back as CSV', async () => {
    const dir = tempDir('collect-parquet-rejects-');
    ordersParquet(join(dir, 'orders.parquet'));
    const rejects = join(dir, 'rejects.csv');
    const { code } = await runCli([
      'order',
      join(dir, 'orders.parquet'),
      '--dry-run',
      '--no-state',
      '--rejects',
      rejects,
    ]);
    expect(code).toBe(1);
    const lines = readFileSync(rejects, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('id,creation_datetime,total_paid_value,user.id,collect_reason');
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual(['', 'ORD-4']);
  });

  it("is read through a mapping, its columns as a CSV export's", async () => {
    const dir = tempDir('collect-parquet-map-');
    ordersParquet(join(dir, 'export.parquet'));
    const mapping = [
      'version: 1',
      'records:',
      '  - endpoint: order',
      '    from: export.parquet',
      '    fields:',
      '      id: id',
      '      creation_datetime: { column: creation_datetime, datetime: iso }',
      '      total_paid_value: { column: total_paid_value, number: decimal-point }',
      '      user.id: user.id',
    ].join('\n');
    writeFileSync(join(dir, 'mapping.yaml'), mapping);
    const { code, stdout } = await runCli([
      'order',
      join(dir, 'export.parquet'),
      '--map',
      join(dir, 'mapping.yaml'),
      '--dry-run',
      '--no-state',
      '--format',
      'json',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { summary: { records: number; invalid: number } };
    expect(report.summary).toMatchObject({ records: rows.length, invalid: 2 });
  });

  it('is read in a backfill folder', async () => {
    const dir = tempDir('collect-parquet-backfill-');
    ordersParquet(join(dir, 'orders.parquet'));
    const { code, stdout } = await runCli(['backfill', dir, '--dry-run', '--no-state', '--format', 'json']);
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as { summary: { records: number } }).summary.records).toBe(rows.length);
  });

  it('stops with exit 2 naming a file called .parquet that is not Parquet', async () => {
    const dir = tempDir('collect-parquet-bad-');
    const file = join(dir, 'orders.parquet');
    writeFileSync(file, ordersCsv);
    const { code, stderr } = await runCli(['order', file, '--dry-run', '--no-state']);
    expect(code).toBe(2);
    expect(stderr).toContain(`${file}: not a Parquet file`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
