import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

function folder(files: Record<string, string>): string {
  const dir = tempDir('collect-backfill-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const history = () =>
  folder({
    'orders-2024.csv':
      'id,creation_datetime,total_paid_value,user.id\nA,2024-01-01T00:00:00Z,10,U\nB,2024-01-01T00:00:00Z,12,U\n',
    'status.ndjson': nd({ id: 'A', status: 'approved' }, { id: 'B', status: 'approved' }),
    'README.txt': 'not an input',
  });

describe('collect backfill', () => {
  it('reads a folder of endpoint-named files, creations first, and ignores other files', async () => {
    const { code, stdout } = await runCli(['backfill', history(), '--dry-run', '--format', 'json']);
    const report = JSON.parse(stdout);
    expect(code).toBe(0);
    expect(
      report.files.map((f: { endpoint: string; records: number }) => `${f.endpoint}:${f.records}`),
    ).toEqual(['order:2', 'status:2']);
  });
  it('reads files named by endpoint flags, repeatable', async () => {
    const dir = history();
    const extra = join(dir, 'more.ndjson');
    writeFileSync(extra, nd(orderRecord('C')));
    const { code, stdout } = await runCli([
      'backfill',
      '--order',
      join(dir, 'orders-2024.csv'),
      '--order',
      extra,
      '--status',
      join(dir, 'status.ndjson'),
      '--dry-run',
      '--format',
      'json',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).summary.records).toBe(5);
  });
  it.each([
    [['backfill', '--dry-run'], 'nothing to backfill'],
    [['backfill', 'no-such-folder', '--dry-run'], 'no-such-folder: cannot be read'],
    [['backfill', 'fixtures/order/valid.csv', '--dry-run'], 'is not a folder'],
    [['backfill', 'test', '--order', 'fixtures/order/valid.csv', '--dry-run'], 'not both'],
  ])('exits 2 for %j', async (argv, message) => {
    const { code, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
  it('exits 2 for a folder with no endpoint files, saying how to name them', async () => {
    const { code, stderr } = await runCli(['backfill', folder({ 'notes.csv': 'a\n1\n' }), '--dry-run']);
    expect(code).toBe(2);
    expect(stderr).toContain('order*.csv');
  });
});

describe('--max-errors', () => {
  it('stops reading after N invalid records, says so, and exits 1', async () => {
    const input = nd(...['A', 'B', 'C', 'D', 'E'].map((id) => ({ id, status: 'nope' })));
    const { code, stdout } = await runCli(
      ['status', '-', '--input-format', 'ndjson', '--dry-run', '--format', 'json', '--max-errors', '2'],
      { stdin: input },
    );
    const report = JSON.parse(stdout);
    expect(code).toBe(1);
    expect(report.summary).toMatchObject({ records: 2, invalid: 2 });
    expect(report.notes).toContainEqual(expect.objectContaining({ code: 'max-errors' }));
  });
  it('rejects a value that is not a positive whole number', async () => {
    expect(
      (await runCli(['status', 'fixtures/status/valid.csv', '--dry-run', '--max-errors', '0'])).code,
    ).toBe(2);
  });
});

describe('report formats on the command line', () => {
  it('junit is well-formed XML and github is workflow commands', async () => {
    const junit = await runCli([
      'backfill',
      '--order',
      'fixtures/order/invalid.csv',
      '--status',
      'fixtures/status/invalid.json',
      '--dry-run',
      '--format',
      'junit',
    ]);
    expect(junit.code).toBe(1);
    expect(XMLValidator.validate(junit.stdout)).toBe(true);
    const github = await runCli(['order', 'fixtures/order/invalid.csv', '--dry-run', '--format', 'github']);
    expect(
      github.stdout
        .split('\n')
        .filter((line) => line.startsWith('::error file=fixtures/order/invalid.csv,line=')),
    ).toHaveLength(4);
  });
});

describe('collect rules', () => {
  it('lists every flow rule with its code, severity, section and fix', async () => {
    const pretty = await runCli(['rules']);
    expect(pretty.code).toBe(0);
    for (const code of ['unknown-order', 'fraud-after-service-decline', 'delivery-order-mismatch'])
      expect(pretty.stdout).toContain(code);
    const json = JSON.parse((await runCli(['rules', '--format', 'json'])).stdout);
    expect(json).toHaveLength(14);
    expect(json[0]).toMatchObject({
      code: 'unknown-order',
      severity: 'error',
      spec: '§2.1, §2.3, §2.6',
      fix: expect.any(String),
    });
  });
});
