/**
 * One way to fail (issue 39): every command that opens a state, an outbox or a report file, run
 * against a real PostgreSQL that is down or unknown, lacks the database, refuses the password or the
 * privilege, and against a real small disk that is full or read-only. Each: exit 2, the cause
 * named, a fix, no stack, no password; never exit 70.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { startTestPostgres } from './helpers/postgres.js';
import { smallDisk, type SmallDisk } from './helpers/smallDisk.js';
import { tempDir } from './helpers/tempDir.js';
import { describeWith } from './helpers/withPrerequisite.js';

const PASSWORD = 'pw-f4u1t-s3cret';
const env = { COLLECT_API_KEY: 'k-operational-faults-0123' };
const work = tempDir('collect-faults-');
const decisions = join(work, 'decisions.csv');
writeFileSync(decisions, 'order_id,decision\nORD-1,reject\nORD-2,approve\n');
const fixture = (path: string) => join('fixtures', path);

const service = await startServer(() => ({ status: 201, body: {} }));
afterAll(() => service.close());

/** Every command that opens a state: `state` is a folder or a postgres:// URL. */
const stateCommands: Record<string, (state: string) => string[]> = {
  ...Object.fromEntries(
    ['order', 'status', 'fraud', 'payment', 'delivery'].map((name) => [
      name,
      (state: string) => [name, fixture(`${name}/valid.ndjson`), '--base-url', service.url, '--state', state],
    ]),
  ),
  backfill: (state) => ['backfill', fixture('history'), '--base-url', service.url, '--state', state],
  chargebacks: (state) => [
    'chargebacks',
    fixture('chargebacks/report.csv'),
    '--map',
    fixture('chargebacks/acquirer.yaml'),
    '--yes',
    '--base-url',
    service.url,
    '--state',
    state,
  ],
  decisions: (state) => ['decisions', decisions, '--base-url', service.url, '--state', state],
  'fraud by hand': (state) => [
    ...['fraud', '--order-id', 'ORD-1', '--type', 'chargeback', '--yes'],
    ...['--base-url', service.url, '--state', state],
  ],
  'relay (its state)': (state) => ['relay', '--from', '-', '--base-url', service.url, '--state', state],
};

/** A command that only reads a state it finds: on a disk it cannot write, an absent state knows no order. */
const stateReaders: Record<string, (state: string) => string[]> = {
  'fraud --acquirer-id': (state) => [
    ...['fraud', '--acquirer-id', 'TX-1', '--type', 'chargeback', '--yes'],
    ...['--base-url', service.url, '--state', state],
  ],
};

/** Every command that opens an outbox. */
const outboxCommands: Record<string, (url: string) => string[]> = {
  relay: (url) => [
    'relay',
    '--from',
    url,
    '--base-url',
    service.url,
    '--state',
    mkdtempSync(join(work, 's-')),
  ],
  'relay init': (url) => ['relay', 'init', '--from', url],
  'relay retry': (url) => ['relay', 'retry', '--from', url],
};

/** The promise every case keeps; `fix`, when given, is what the fix must say. */
async function failsWell(argv: string[], cause: RegExp, fix = /fix: /): Promise<void> {
  const { code, stderr } = await runCli(argv, { env });
  expect(stderr).not.toMatch(/\n\s+at |internal error|please report/);
  expect(stderr).not.toContain(PASSWORD);
  expect(stderr).toMatch(cause);
  expect(stderr).toMatch(fix);
  expect(code).toBe(2);
}

const closedPort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const server = await startTestPostgres();
afterAll(() => server?.stop());

/**
 * The server's pg_hba.conf asks `role` for its password (the test servers trust every login):
 * written where the server says it is, then reloaded; waits until a wrong password is refused.
 */
let restoreHba: ((admin: pg.Client) => Promise<void>) | undefined;

async function passwordRole(admin: pg.Client, role: string, url: URL): Promise<string | undefined> {
  const { rows } = await admin.query<{ hba_file: string }>('SHOW hba_file');
  const file = rows[0]!.hba_file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
    writeFileSync(file, `host all ${role} 127.0.0.1/32 scram-sha-256\n${text}`);
    // The server is shared with other test files: its pg_hba.conf is put back as it was.
    restoreHba = async (client) => {
      writeFileSync(file, text);
      await client.query('SELECT pg_reload_conf()');
    };
  } catch (cause) {
    return `the server's pg_hba.conf (${file}) cannot be written from here: ${String(cause)}`;
  }
  await admin.query('SELECT pg_reload_conf()');
  const wrong = new URL(url);
  wrong.username = role;
  wrong.password = PASSWORD;
  for (;;) {
    const client = new pg.Client({ connectionString: wrong.toString() });
    const refused = await client.connect().then(
      () => false,
      (cause: { code?: string }) => cause.code === '28P01',
    );
    await client.end().catch(() => undefined);
    if (refused) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 20)); // the postmaster reloads on its own time
  }
}

describeWith('postgres')('a PostgreSQL that cannot be used', () => {
  const urls: Record<string, string> = {};
  let noPasswordRole: string | undefined;
  let adminUrl: string | undefined;
  afterAll(async () => {
    if (!restoreHba || !adminUrl) return;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await restoreHba(admin);
    await admin.end();
  });
  beforeAll(async () => {
    const url = new URL(await server!.database());
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    const suffix = Math.random().toString(36).slice(2, 8);
    await admin.query(`CREATE ROLE weak_${suffix} LOGIN`);
    await admin.query(`CREATE ROLE secret_${suffix} LOGIN PASSWORD 'the-right-one'`);
    await admin.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    noPasswordRole = await passwordRole(admin, `secret_${suffix}`, url);
    await admin.end();
    adminUrl = url.toString();
    expect((await runCli(['relay', 'init', '--from', url.toString()])).code).toBe(0);
    const as = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return copy.toString();
    };
    const port = await closedPort();
    urls['down (a closed port)'] = as((u) => {
      u.port = String(port);
      u.password = PASSWORD;
    });
    // .invalid is never a host (RFC 6761): the resolver answers at once, also with no network.
    urls['an unknown host'] = as((u) => {
      u.hostname = `db-${suffix}.invalid`;
      u.password = PASSWORD;
    });
    urls['an unknown database'] = as((u) => {
      u.pathname = `/no_such_db_${suffix}`;
      u.password = PASSWORD;
    });
    urls['a wrong password'] = as((u) => {
      u.username = `secret_${suffix}`;
      u.password = PASSWORD;
    });
    urls['a role without the privilege'] = as((u) => {
      u.username = `weak_${suffix}`;
      u.password = PASSWORD;
    });
  });

  const causes: Record<string, RegExp> = {
    'down (a closed port)': /nothing answers at .*127\.0\.0\.1:\d+.* \(connection refused/,
    'an unknown host': /the host .*db-\w+\.invalid.* cannot be found \((ENOTFOUND|EAI_AGAIN)\)/,
    'an unknown database': /database "no_such_db_\w+" does not exist \(3D000\)/,
    'a wrong password': /password authentication failed for user "secret_\w+" \(28P01\)/,
    'a role without the privilege': /permission denied for (schema public|table collect_outbox)/,
  };
  const commands = { ...stateCommands, ...stateReaders, ...outboxCommands };
  for (const fault of Object.keys(causes))
    for (const [name, argv] of Object.entries(commands))
      it(`${fault}: collect ${name} is exit 2 with the cause and a fix`, async (context) => {
        if (fault === 'a wrong password' && noPasswordRole) {
          if (process.env.CI) throw new Error(noPasswordRole);
          context.skip(noPasswordRole);
        }
        // The relay reads its outbox and its state from the same database unless told otherwise.
        await failsWell(argv(urls[fault]!), causes[fault]!);
      });
});

describe('a disk that is full or read-only (the state, the report and the files beside it)', () => {
  let full: SmallDisk | { reason: string };
  let readOnly: SmallDisk | { reason: string };
  beforeAll(() => {
    full = smallDisk(256 * 1024);
    if ('dir' in full) {
      // Filled to the last byte: a new state, its WAL or a report cannot be written.
      const filler = Buffer.alloc(4096, 1);
      try {
        for (let i = 0; ; i++) writeFileSync(join(full.dir, `filler-${i}`), filler);
      } catch {
        // ENOSPC: full
      }
    }
    readOnly = smallDisk(1024 * 1024);
    if ('dir' in readOnly) {
      for (const name of Object.keys(stateCommands)) mkdirSync(join(readOnly.dir, name.replace(/\W+/g, '-')));
      readOnly.readOnly();
    }
  });
  afterAll(() => {
    for (const disk of [full, readOnly]) if ('dir' in disk) disk.unmount();
  });

  const sandbox = (dir: string) => ['sandbox', '--port', '0', '--report', join(dir, 'report.json')];
  const commands: Record<string, (dir: string) => string[]> = {
    ...Object.fromEntries(
      Object.entries(stateCommands).map(([name, argv]) => [
        name,
        (dir: string) => argv(join(dir, name.replace(/\W+/g, '-'))),
      ]),
    ),
    'sandbox --report': sandbox,
    // The files a run writes beside its report, with no state (the state's own faults are above).
    'order --rejects': (dir) => [
      ...['order', fixture('order/invalid.ndjson'), '--dry-run'],
      ...['--rejects', join(dir, 'rejects.ndjson')],
    ],
    'order --results': (dir) => [
      ...['order', fixture('order/valid.ndjson'), '--base-url', service.url, '--no-state'],
      ...['--results', join(dir, 'results.ndjson')],
    ],
    'order --report-html': (dir) => [
      ...['order', fixture('order/valid.ndjson'), '--dry-run'],
      ...['--report-html', join(dir, 'report.html')],
    ],
  };
  for (const [name, argv] of Object.entries(commands)) {
    it(`full: collect ${name} is exit 2 naming the space`, async (context) => {
      if (!('dir' in full)) return context.skip(full.reason);
      await failsWell(argv(full.dir), /full|no space left/i, /fix: free space/);
    });
    it(`read-only: collect ${name} is exit 2 naming the read-only disk`, async (context) => {
      if (!('dir' in readOnly)) return context.skip(readOnly.reason);
      await failsWell(argv(readOnly.dir), /read-only|EROFS/, /fix: .*(writable|read-write)/);
    });
  }
});
