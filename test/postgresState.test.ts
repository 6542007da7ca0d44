import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect } from 'vitest';
import { resources } from '../src/resources/registry.js';
import type { Facts } from '../src/resources/resource.js';
import { PostgresLock } from '../src/state/postgres/pgLock.js';
import { PostgresState } from '../src/state/postgres/postgresState.js';
import { namespaceOf } from '../src/state/remembered.js';
import { runStateContract } from '../src/state/runStateContract.js';
import { nd, orderRecord } from './helpers/history.js';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { startTestPostgres, type TestPostgres } from './helpers/postgres.js';
import { tempDir } from './helpers/tempDir.js';
import { itWith } from './helpers/withPrerequisite.js';

// Started before the tests are collected, so that a missing server can skip them (never in CI).
const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());

const env = { COLLECT_API_KEY: 'k-12345678' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function service(
  reply: () => { status: number; body: unknown; delayMs?: number } = () => ({
    status: 201,
    body: { message: 'ok' },
  }),
) {
  const http = await startServer(reply);
  closers.push(http.close);
  return http;
}

function file(name: string, text: string): string {
  const path = join(tempDir('collect-pg-input-'), name);
  writeFileSync(path, text);
  return path;
}

const orders = (count: number, prefix = 'ORD') =>
  file('order.ndjson', nd(...Array.from({ length: count }, (_, i) => orderRecord(`${prefix}-${i}`))));
const now = new Date('2025-01-01T00:00:00Z');

// Skips only on a machine with no PostgreSQL at all and CI unset (startTestPostgres throws in CI).
const withPostgres = () => itWith('postgres');

runStateContract({
  name: 'PostgreSQL',
  skip: server === null,
  fresh: async () => {
    const url = await server!.database();
    return (baseUrl) => PostgresState.connect(url, baseUrl, { loadNow: true });
  },
});

describe('the PostgreSQL state', () => {
  withPostgres()('keeps the card keys of payments, with no index, for the chargebacks card key', async () => {
    const url = await server!.database();
    const store = await PostgresState.connect(url, 'https://collect.example.com', { loadNow: true });
    const order = {
      id: 'CARD-1',
      creation_datetime: '2024-04-02T23:30:00-03:00',
      payments: [{ id: 'P', value: 129.9, card: { last_four_digits: '1808' } }],
    };
    store.remember(
      [{ resource: resources.order, hash: 'hc', outcome: 'accepted', facts: resources.order.facts(order)! }],
      now,
    );
    await store.durable();
    await store.close();
    const reopened = await PostgresState.connect(url, 'https://collect.example.com', { loadNow: true });
    expect(await reopened.ordersByCard([['1808', '12990', '2024-04-03']])).toEqual([
      { tuple: 0, orderId: 'CARD-1' },
    ]);
    await reopened.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // Looked up in the local copy: an index in PostgreSQL would only cost each write.
    const { rows } = await client.query(
      "SELECT indexname FROM pg_indexes WHERE tablename = 'collect_order_payments' AND indexname LIKE '%card%'",
    );
    await client.end();
    expect(rows).toEqual([]);
  });

  withPostgres()(
    'moves the card rows of a schema-1 state (collect_order_cards) onto its payments',
    async () => {
      const url = await server!.database();
      const namespace = namespaceOf('https://collect.example.com');
      const first = await PostgresState.connect(url, 'https://collect.example.com', { loadNow: true });
      await first.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      // The state as the collect of schema 1 left it: no card columns, its card rows in a table of their own.
      await client.query(`ALTER TABLE collect_order_payments
        DROP COLUMN last_four, DROP COLUMN value_cents, DROP COLUMN sale_date;
      CREATE TABLE IF NOT EXISTS collect_order_cards (namespace TEXT NOT NULL, order_id TEXT NOT NULL,
        shard_key BIGINT NOT NULL, payment_id TEXT NOT NULL, last_four TEXT, value_cents TEXT, sale_date TEXT,
        PRIMARY KEY (namespace, order_id, payment_id));
      CREATE INDEX IF NOT EXISTS collect_order_cards_by_lookup ON collect_order_cards
        (namespace, last_four, value_cents, sale_date);
      UPDATE collect_schema SET version = 1;
      INSERT INTO collect_orders VALUES ('${namespace}', 'CARD-1', 7, 'h', FALSE, NULL, NULL);
      INSERT INTO collect_order_payments VALUES ('${namespace}', 'CARD-1', 7, 'P', NULL, NULL);
      INSERT INTO collect_order_cards VALUES ('${namespace}', 'CARD-1', 7, 'P', '1808', '12990', '2024-04-03');`);
      const upgraded = await PostgresState.connect(url, 'https://collect.example.com', { loadNow: true });
      expect(await upgraded.ordersByCard([['1808', '12990', '2024-04-03']])).toEqual([
        { tuple: 0, orderId: 'CARD-1' },
      ]);
      await upgraded.close();
      const { rows } = await client.query("SELECT to_regclass('collect_order_cards') AS cards");
      expect(rows).toEqual([{ cards: null }]);
      await client.end();
    },
  );

  withPostgres()(
    'keeps content hashes as hex text in PostgreSQL and reads them into the compact embedded store',
    async () => {
      const url = await server!.database();
      const [created, updated] = [
        'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
        '0b94a8fe5ccb19ba61c4c0873d391e987982fbbd',
      ];
      const store = await PostgresState.connect(url, 'https://collect.example.com', { loadNow: true });
      store.remember(
        [
          {
            resource: resources.order,
            hash: created,
            outcome: 'accepted',
            facts: {
              kind: 'order',
              orderId: 'A',
              key: 'A',
              evaluate: false,
              payments: [],
              claims: [],
            } as Facts,
          },
          {
            resource: resources.status,
            hash: updated,
            outcome: 'failed',
            facts: { kind: 'status', orderId: 'A', key: 'A', status: 'approved' } as Facts,
          },
        ],
        now,
      );
      await store.durable();
      await store.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query(
        'SELECT hash, endpoint, order_id, outcome FROM collect_journal ORDER BY hash',
      );
      await client.end();
      expect(rows).toEqual([
        { hash: updated, endpoint: 'status', order_id: 'A', outcome: 'failed' },
        { hash: created, endpoint: 'order', order_id: 'A', outcome: 'accepted' },
      ]);
      const reopened = await PostgresState.connect(url, 'https://collect.example.com', { loadNow: true });
      expect(reopened.priorOrder('A')).toMatchObject({ created: true, hash: created });
      expect(reopened.journalOutcome(created)).toBe('accepted');
      expect(reopened.journalOutcome(updated)).toBe('failed');
      await reopened.close();
    },
  );

  withPostgres()(
    'keeps re-runs safe: a second run (COLLECT_STATE) sends nothing already accepted',
    async () => {
      const url = await server!.database();
      const http = await service();
      const input = orders(30);
      expect((await runCli(['order', input, '--base-url', http.url, '--state', url], { env })).code).toBe(0);
      expect(http.requests).toHaveLength(30);
      // The built binary, as a CI job runs it: the state named by COLLECT_STATE alone.
      const again = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          ['dist/cli/main.js', 'order', input, '--base-url', http.url, '--format', 'json'],
          { env: { PATH: process.env.PATH ?? '', ...env, COLLECT_STATE: url } },
        );
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout }));
      });
      expect(again.code).toBe(0);
      expect(http.requests).toHaveLength(30);
      expect((JSON.parse(again.stdout) as { summary: { skipped: number } }).summary.skipped).toBe(30);
    },
  );

  withPostgres()(
    'refuses a second run with exit 2 naming the holder, and takes over the lock of a session that is gone',
    async () => {
      const url = await server!.database();
      const http = await service();
      await runCli(['order', orders(1), '--base-url', http.url, '--state', url], { env });
      const session = new pg.Client({ connectionString: url });
      await session.connect();
      await PostgresLock.acquire(session, namespaceOf(http.url), {
        where: 'x',
        waitMs: 0,
        command: 'collect backfill history/',
      });
      const refused = await runCli(['order', orders(3, 'NEW'), '--base-url', http.url, '--state', url], {
        env,
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`pid ${process.pid} on host`);
      expect(refused.stderr).toContain('collect backfill history/');
      expect(http.requests).toHaveLength(1);
      await session.end(); // as a killed run's connection would
      const after = await runCli(['order', orders(3, 'NEW'), '--base-url', http.url, '--state', url], {
        env,
      });
      expect(after.code).toBe(0);
      expect(http.requests).toHaveLength(4);
    },
  );

  withPostgres()('holds §1.5 with decisions loaded into it', async () => {
    const url = await server!.database();
    const http = await service();
    const loaded = await runCli([
      'decisions',
      file('d.csv', 'order_id,decision\nORD-9,reject\n'),
      '--base-url',
      http.url,
      '--state',
      url,
    ]);
    expect(loaded.code).toBe(0);
    const { code, stdout } = await runCli(
      [
        'fraud',
        '--order-id',
        'ORD-9',
        '--type',
        'chargeback',
        '--yes',
        '--base-url',
        http.url,
        '--state',
        url,
      ],
      { env },
    );
    expect(code).toBe(1);
    expect(stdout).toContain('fraud-after-service-decline');
    expect(http.requests).toHaveLength(0);
  });

  withPostgres()('refuses a state written by a newer collect, before sending', async () => {
    const url = await server!.database();
    const http = await service();
    await runCli(['order', orders(1), '--base-url', http.url, '--state', url], { env });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('UPDATE collect_schema SET version = 99');
    await admin.end();
    const { code, stderr } = await runCli(['order', orders(2, 'X'), '--base-url', http.url, '--state', url], {
      env,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('newer collect (schema 99');
    expect(http.requests).toHaveLength(1);
  });

  withPostgres()(
    'loses nothing to kill -9: the re-run sends what was not acknowledged, and at most twice the concurrency again',
    async () => {
      const url = await server!.database();
      const http = await service(() => ({ status: 201, body: { message: 'ok' }, delayMs: 5 }));
      const input = orders(400);
      const child = spawn(
        process.execPath,
        ['dist/cli/main.js', 'order', input, '--base-url', http.url, '--state', url, '--concurrency', '4'],
        { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' },
      );
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (http.requests.length >= 150) {
            clearInterval(poll);
            child.kill('SIGKILL');
            resolve();
          }
        }, 5);
      });
      await new Promise((resolve) => child.on('close', resolve));
      const { code } = await runCli(
        ['order', input, '--base-url', http.url, '--state', url, '--concurrency', '4'],
        { env },
      );
      expect(code).toBe(0);
      const ids = http.requests.map((r) => (JSON.parse(r.body) as { id: string }).id);
      expect(new Set(ids).size).toBe(400);
      expect(ids.length - 400).toBeLessThanOrEqual(2 * 4);
    },
  );

  withPostgres()(
    'serves the shards of one backfill: every record once, creations before their updates',
    async () => {
      const url = await server!.database();
      const http = await service();
      const dir = tempDir('collect-pg-shards-');
      const ids = Array.from({ length: 40 }, (_, i) => `ORD-${i}`);
      writeFileSync(join(dir, 'order.ndjson'), nd(...ids.map((id) => orderRecord(id))));
      writeFileSync(join(dir, 'status.ndjson'), nd(...ids.map((id) => ({ id, status: 'approved' }))));
      const runs = await Promise.all(
        [0, 1, 2].map((index) =>
          runCli(['backfill', dir, '--shard', `${index}/3`, '--base-url', http.url, '--state', url], { env }),
        ),
      );
      expect(runs.map((run) => run.code)).toEqual([0, 0, 0]);
      const sent = http.requests.map((r) => `${r.method} ${(JSON.parse(r.body) as { id: string }).id}`);
      expect(sent).toHaveLength(80);
      expect(new Set(sent).size).toBe(80);
      for (const id of ids) expect(sent.indexOf(`POST ${id}`)).toBeLessThan(sent.indexOf(`PUT ${id}`));
    },
  );

  /** Runs the built CLI (as a CI job would) until it ends; `during` is called once it has sent `after` requests. */
  async function sendingRun(
    args: string[],
    http: { requests: unknown[] },
    after: number,
    during: () => Promise<void>,
  ) {
    const child = spawn(process.execPath, ['dist/cli/main.js', ...args, '--format', 'json'], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (http.requests.length < after) await new Promise((resolve) => setTimeout(resolve, 5));
    await during();
    return { code: await ended, stdout, stderr };
  }

  /** Ends every connection collect holds to the database (as a DBA or a failover would). */
  async function terminateCollect(admin: pg.Client): Promise<number> {
    const { rows } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'collect' " +
        'AND datname = current_database()',
    );
    return rows.length;
  }

  withPostgres()(
    'a dropped connection mid-send (pg_terminate_backend): the run reconnects, keeps its lock and ' +
      'goes on; every record accepted once',
    async () => {
      const url = await server!.database();
      const http = await service(() => ({ status: 201, body: { message: 'ok' }, delayMs: 10 }));
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      closers.push(() => admin.end());
      const input = orders(300);
      const args = ['order', input, '--base-url', http.url, '--state', url, '--concurrency', '4'];
      let lockBefore: unknown;
      const first = await sendingRun(args, http, 100, async () => {
        lockBefore = (await admin.query('SELECT token, backend_pid FROM collect_run_locks')).rows[0];
        expect(await terminateCollect(admin)).toBe(2); // its lock's session and its writer
      });
      expect(first.stderr).not.toContain('internal error');
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout).summary).toMatchObject({ accepted: 300 });
      expect(lockBefore).toMatchObject({ token: expect.any(String) });
      const ids = http.requests.map((r) => (JSON.parse(r.body) as { id: string }).id);
      expect(ids).toHaveLength(300);
      expect(new Set(ids).size).toBe(300);
      // Every answer reached the state: a re-run sends nothing, and the lock was released.
      const again = await runCli(args, { env });
      expect(again.code).toBe(0);
      expect(http.requests).toHaveLength(300);
      expect((await admin.query('SELECT count(*)::int AS n FROM collect_run_locks')).rows[0]).toEqual({
        n: 0,
      });
    },
    60_000,
  );

  withPostgres()(
    'a database that stays away after the drop: exit 2 naming the state, the summary so far; the ' +
      're-run loses nothing, within the duplicate bound',
    async () => {
      const url = await server!.database();
      const database = new URL(url).pathname.slice(1);
      const http = await service(() => ({ status: 201, body: { message: 'ok' }, delayMs: 10 }));
      const admin = new pg.Client({ connectionString: url.replace(`/${database}`, '/postgres') });
      await admin.connect();
      closers.push(() => admin.end());
      const input = orders(300);
      const args = ['order', input, '--base-url', http.url, '--state', url, '--concurrency', '4'];
      const first = await sendingRun(args, http, 100, async () => {
        await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = $2',
          ['collect', database],
        );
      });
      await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      expect(first.stderr).not.toContain('internal error');
      expect(first.code).toBe(2);
      expect(first.stderr).toContain(`the state ${new URL(url).toString()}`);
      const report = JSON.parse(first.stdout) as { summary: { accepted: number }; notes: { code: string }[] };
      expect(report.notes).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'state-failed' })]),
      );
      expect(report.notes.map((note) => note.code)).not.toContain('interrupted');
      expect(report.summary.accepted).toBeGreaterThanOrEqual(100);
      expect(report.summary.accepted).toBeLessThan(300);
      const again = await runCli([...args, '--format', 'json'], { env });
      expect(again.code).toBe(0);
      const ids = http.requests.map((r) => (JSON.parse(r.body) as { id: string }).id);
      expect(new Set(ids).size).toBe(300);
      expect(ids.length - 300).toBeLessThanOrEqual(2 * 4);
    },
    60_000,
  );

  withPostgres()(
    'a run whose lock was taken over while its connection was down stops (exit 2) rather than ' +
      'write beside the new holder',
    async () => {
      const url = await server!.database();
      const store = await PostgresState.connect(url, 'https://collect.example.com', { loadNow: false });
      const lock = await store.lock({ where: 'x', waitMs: 0, command: 'collect order a.ndjson' });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      closers.push(() => admin.end());
      // Another run judged this one gone and took the lock (pgLock.ts tryTake), then the connections dropped.
      await admin.query(
        "UPDATE collect_run_locks SET token = 'other-run', pid = 1, command = 'collect order b.ndjson'",
      );
      expect(await terminateCollect(admin)).toBe(2);
      store.remember(
        [
          {
            resource: resources.order,
            hash: 'h1',
            outcome: 'accepted',
            facts: {
              kind: 'order',
              orderId: 'A',
              key: 'A',
              evaluate: false,
              payments: [],
              claims: [],
            } as Facts,
          },
        ],
        now,
      );
      await expect(store.durable()).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining('taken by another run'),
      });
      expect((await admin.query('SELECT count(*)::int AS n FROM collect_journal')).rows[0]).toEqual({ n: 0 });
      await lock.release();
      await store.close();
      expect((await admin.query('SELECT token FROM collect_run_locks')).rows).toEqual([
        { token: 'other-run' },
      ]);
    },
    60_000,
  );
});
