/**
 * --rejects and --results never destroy an input, never write through a link, never overwrite a user's file
 * by surprise.
 */
import { cpSync, linkSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'sk_test_outputs-0123456789' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const ORDERS =
  'id,creation_datetime,total_paid_value\nA,2024-03-01T14:30:00Z,10.50\nB,not-a-date,10.50\n' +
  'C,2024-03-01T14:30:00Z,-3\n';
const STATUSES = '{"id":"A","status":"approved"}\n{"id":"B","status":"approved"}\n';

function workdir(): string {
  const dir = tempDir('collect-outputs-');
  writeFileSync(join(dir, 'orders.csv'), ORDERS);
  writeFileSync(join(dir, 'status.ndjson'), STATUSES);
  return dir;
}

async function accepting() {
  const server = await startServer(() => ({ status: 200, body: {} }));
  closers.push(server.close);
  return server;
}

describe('an output that is one of the inputs', () => {
  it('--rejects naming the CSV input: exit 2 before anything is read; the input keeps its valid rows', async () => {
    const dir = workdir();
    const { code, stdout, stderr } = await runCli([
      'order',
      join(dir, 'orders.csv'),
      '--dry-run',
      '--rejects',
      join(dir, 'orders.csv'),
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      `--rejects ${join(dir, 'orders.csv')} is one of the inputs (${join(dir, 'orders.csv')})`,
    );
    expect(readFileSync(join(dir, 'orders.csv'), 'utf8')).toBe(ORDERS);
  });

  it('a rejects file fed back with the same --rejects (its own input): refused, not replaced', async () => {
    const dir = workdir();
    expect(
      (await runCli(['order', join(dir, 'orders.csv'), '--dry-run', '--rejects', join(dir, 'rejects.csv')]))
        .code,
    ).toBe(1);
    const rejects = readFileSync(join(dir, 'rejects.csv'), 'utf8');
    const again = await runCli([
      'order',
      join(dir, 'rejects.csv'),
      '--dry-run',
      '--rejects',
      join(dir, 'rejects.csv'),
    ]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is one of the inputs');
    expect(readFileSync(join(dir, 'rejects.csv'), 'utf8')).toBe(rejects);
  });

  it('--results naming the NDJSON input, or a hard link to it: exit 2, nothing sent, nothing appended', async () => {
    const server = await accepting();
    const dir = workdir();
    linkSync(join(dir, 'status.ndjson'), join(dir, 'hardlink.ndjson'));
    for (const results of [join(dir, 'status.ndjson'), join(dir, 'hardlink.ndjson')]) {
      const { code, stderr } = await runCli(
        ['status', join(dir, 'status.ndjson'), '--base-url', server.url, '--no-state', '--results', results],
        { env },
      );
      expect(code).toBe(2);
      expect(stderr).toContain(`--results ${results} is one of the inputs`);
    }
    expect(server.requests).toHaveLength(0);
    expect(readFileSync(join(dir, 'status.ndjson'), 'utf8')).toBe(STATUSES);
  });

  it('a --rejects path inside the backfill folder that the next run would read as input: refused', async () => {
    const dir = workdir();
    // Two inputs: --rejects is a folder, listed by the next run as an input named order-...
    const { code, stderr } = await runCli([
      'backfill',
      dir,
      '--dry-run',
      '--rejects',
      join(dir, 'order-rejects.csv'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(`is in the input folder ${dir}, where the next run would read it as input`);
    const folder = tempDir('collect-outputs-one-');
    writeFileSync(join(folder, 'orders.csv'), ORDERS);
    const single = await runCli([
      'backfill',
      folder,
      '--dry-run',
      '--rejects',
      join(folder, 'order-rejects.csv'),
    ]);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain(
      `--rejects ${join(folder, 'order-rejects.csv')} is in the input folder ${folder}`,
    );
    // A name the folder's listing does not read is fine.
    const fine = await runCli(['backfill', dir, '--dry-run', '--results', join(dir, 'results.ndjson')]);
    expect({ code: fine.code, err: fine.stderr }).toEqual({ code: 1, err: '' });
  });

  it('--rejects naming a file a mapping looks rows up in: refused, the file kept', async () => {
    const dir = tempDir('collect-outputs-map-');
    cpSync('fixtures/marketplace', dir, { recursive: true });
    const lookup = join(dir, 'olist_customers_dataset.csv');
    const before = readFileSync(lookup, 'utf8');
    const { code, stderr } = await runCli([
      'order',
      join(dir, 'olist_orders_dataset.csv'),
      '--map',
      join(dir, 'mapping.yaml'),
      '--dry-run',
      '--rejects',
      lookup,
    ]);
    expect(code).toBe(2);
    // A mapping with lists writes its rejects to a folder (one file per source): a file there is no folder.
    expect(stderr).toContain(`--rejects ${lookup} is not a folder`);
    expect(readFileSync(lookup, 'utf8')).toBe(before);
  });

  it(
    "backfill DIR --map: a --rejects file an entry's from: glob would read next time is refused; one " +
      'no entry reads is fine',
    async () => {
      const dir = tempDir('collect-outputs-glob-');
      cpSync('fixtures/marketplace', dir, { recursive: true });
      const mapping = join(dir, 'mapping.yaml');
      writeFileSync(
        mapping,
        readFileSync(mapping, 'utf8').replace(/from: olist_orders_dataset\.csv/g, 'from: olist_orders*.csv'),
      );
      const refused = await runCli([
        'backfill',
        dir,
        '--map',
        mapping,
        '--dry-run',
        '--rejects',
        join(dir, 'olist_orders_rejects.csv'),
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `is in the input folder ${dir}, where the next run would read it as input`,
      );
      const fine = await runCli([
        'backfill',
        dir,
        '--map',
        mapping,
        '--dry-run',
        '--rejects',
        join(dir, 'rejects.csv'),
      ]);
      expect(fine.stderr).toBe('');
    },
  );
});

describe("a link or a user's file at the output path", () => {
  it('a symbolic link planted at --rejects or --results: exit 2, its target untouched', async () => {
    const server = await accepting();
    const dir = workdir();
    writeFileSync(join(dir, 'victim'), 'precious\n');
    symlinkSync(join(dir, 'victim'), join(dir, 'rejects.csv'));
    symlinkSync(join(dir, 'victim'), join(dir, 'results.ndjson'));
    const rejects = await runCli([
      'order',
      join(dir, 'orders.csv'),
      '--dry-run',
      '--rejects',
      join(dir, 'rejects.csv'),
    ]);
    expect(rejects.code).toBe(2);
    expect(rejects.stderr).toContain(
      `--rejects ${join(dir, 'rejects.csv')} is a symbolic link; collect never writes through one`,
    );
    const results = await runCli(
      [
        'status',
        join(dir, 'status.ndjson'),
        '--base-url',
        server.url,
        '--no-state',
        '--results',
        join(dir, 'results.ndjson'),
      ],
      { env },
    );
    expect(results.code).toBe(2);
    expect(results.stderr).toContain('is a symbolic link');
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('precious\n');
    expect(server.requests).toHaveLength(0);
  });

  it('an existing file that is not a rejects file: refused, never overwritten', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'report.csv'), 'quarter,revenue\nQ1,100\n');
    const { code, stderr } = await runCli([
      'order',
      join(dir, 'orders.csv'),
      '--dry-run',
      '--rejects',
      join(dir, 'report.csv'),
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('exists and is not a rejects file collect wrote');
    expect(readFileSync(join(dir, 'report.csv'), 'utf8')).toBe('quarter,revenue\nQ1,100\n');
  });

  it(
    "an earlier run's rejects file is replaced, also by an empty one once nothing is rejected; new " +
      'files are 0600',
    async () => {
      const dir = workdir();
      const rejects = join(dir, 'rejects.csv');
      const state = freshStateDir();
      expect(
        (
          await runCli([
            'order',
            join(dir, 'orders.csv'),
            '--dry-run',
            '--state',
            state,
            '--rejects',
            rejects,
          ])
        ).code,
      ).toBe(1);
      expect(readFileSync(rejects, 'utf8').trim().split('\n')).toHaveLength(3);
      expect(statSync(rejects).mode & 0o777).toBe(0o600);
      writeFileSync(
        join(dir, 'orders.csv'),
        'id,creation_datetime,total_paid_value\nB,2024-03-01T14:30:00Z,10.50\n',
      );
      expect(
        (
          await runCli([
            'order',
            join(dir, 'orders.csv'),
            '--dry-run',
            '--state',
            state,
            '--rejects',
            rejects,
          ])
        ).code,
      ).toBe(0);
      expect(readFileSync(rejects, 'utf8')).toBe('');
    },
  );

  it(
    'a re-run keeps the records the service rejected earlier in --rejects (not sent again, still to ' +
      'fix)',
    async () => {
      const server = await startServer((request) =>
        request.body.includes('"B"')
          ? { status: 400, body: { error_message: 'unknown order B' } }
          : { status: 200, body: {} },
      );
      closers.push(server.close);
      const dir = workdir();
      const state = freshStateDir();
      const command = [
        'status',
        join(dir, 'status.ndjson'),
        '--base-url',
        server.url,
        '--state',
        state,
        '--rejects',
        join(dir, 'rejects.ndjson'),
      ];
      expect((await runCli(command, { env })).code).toBe(1);
      // B is not sent again, and the run does not pass while the service lacks it (a rejected-before note).
      expect((await runCli(command, { env })).code).toBe(1);
      expect(server.requests).toHaveLength(2);
      const lines = readFileSync(join(dir, 'rejects.ndjson'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; collect_reason: string });
      expect(lines.map((line) => line.id)).toEqual(['B']);
      expect(lines[0]!.collect_reason).toContain('rejected by the service in an earlier run');
    },
  );
});
