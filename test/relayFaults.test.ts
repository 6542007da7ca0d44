/**
 * `collect relay` against what an attacker or a careless hand does (issue 39, third red-team round):
 * a database that goes away or refuses, rows too large or too deep to read, endpoint texts by the
 * thousand. Real PostgreSQL, real processes, a real HTTP service on 127.0.0.1.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { orderRecord } from './helpers/history.js';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { startTestPostgres, type TestPostgres } from './helpers/postgres.js';
import { insertEvents, outboxRows, startRelay, until, type RelayProcess } from './helpers/relayProcess.js';
import { tempDir } from './helpers/tempDir.js';
import { describeWith } from './helpers/withPrerequisite.js';

const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function relay(args: string[], stdin?: string, nodeArgs?: string[]): RelayProcess {
  const process = startRelay(args, stdin, nodeArgs);
  cleanups.push(() => {
    if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
    return process.exited;
  });
  return process;
}

async function outbox(): Promise<string> {
  const url = await server!.database();
  const init = await runCli(['relay', 'init', '--from', url]);
  expect(init.code).toBe(0);
  return url;
}

/** A session of its own on `url`, ended after the test. */
async function session(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

/** A service that accepts every request, each answer waiting for `open()` (none waits once it is called). */
async function gatedService() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const http = await startServer(async () => {
    await gate;
    return { status: 201, body: { message: 'ok' } };
  });
  cleanups.push(http.close);
  return { ...http, open };
}

/** Resolves once `check` holds; fails at once if the relay ends first (a crash is not a wait). */
async function whileRunning(running: RelayProcess, check: () => Promise<boolean> | boolean): Promise<void> {
  let ended = false;
  const done = until(async () => ended || (await check()));
  const end = await Promise.race([done.then(() => undefined), running.exited]);
  ended = true;
  if (end) throw new Error(`the relay ended (${JSON.stringify(end)}): ${JSON.stringify(running.logs)}`);
}

const port = async (running: RelayProcess) =>
  (await running.waitFor((line) => line.state === 'listening')).port as number;
const probe = async (at: number, path: string) => (await fetch(`http://127.0.0.1:${at}${path}`)).status;
const failure = (running: RelayProcess) =>
  running.logs.filter((line) => line.state === 'failed' || line.state === 'text').map((line) => line.message);

const creation = (id: string) => ({ endpoint: 'order', body: orderRecord(id) });
const status = (id: string) => ({ endpoint: 'status', body: { id, status: 'approved' } });
const tmpState = (name: string) => join(tempDir(`collect-relay-${name}-`), 'state');

describeWith('postgres')('collect relay when its database fails', { timeout: 60_000 }, () => {
  it(
    'exits 2 naming the cause when its session is terminated with an event in flight; /healthz and ' +
      '/readyz fail meanwhile',
    async () => {
      const url = await outbox();
      const http = await gatedService();
      const args = ['--from', url, '--base-url', http.url, '--poll-interval', '50', '--timeout', '60000'];
      const running = relay([...args, '--metrics-port', '0']);
      const at = await port(running);
      await insertEvents(url, [creation('T-1')]);
      await until(() => http.requests.length === 1);
      expect(await probe(at, '/healthz')).toBe(200);

      const admin = await session(url);
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'collect relay'`,
      );
      // It cannot mark what it sends: not alive, not ready, while the request in flight finishes.
      await whileRunning(running, async () => (await probe(at, '/healthz')) === 503);
      expect(await probe(at, '/readyz')).toBe(503);
      http.open();
      expect((await running.exited).code).toBe(2);
      expect(failure(running).join('\n')).toMatch(/terminating connection due to administrator command/);
      // Not marked: the next start sends it again (the state knows it was accepted: a repeat).
      expect((await outboxRows(url)).map((row) => row.relay_state)).toEqual([null]);
    },
  );

  it('exits 2 naming the cause when UPDATE on the outbox is revoked', async () => {
    const url = await outbox();
    const http = await gatedService();
    http.open();
    const role = `relay_${Math.random().toString(36).slice(2, 10)}`;
    const admin = await session(url);
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(`GRANT SELECT, UPDATE ON collect_outbox TO ${role}`);
    cleanups.push(async () => {
      await admin.query(`DROP OWNED BY ${role}`);
      await admin.query(`DROP ROLE ${role}`);
    });
    const as = new URL(url);
    as.username = role;
    const running = relay(['--from', as.toString(), '--base-url', http.url, '--state', tmpState('revoke')]);
    await insertEvents(url, [creation('P-1')]);
    await running.waitFor((line) => line.state === 'sent' && line.order === 'P-1');

    await admin.query(`REVOKE UPDATE ON collect_outbox FROM ${role}`);
    await insertEvents(url, [creation('P-2')]);
    expect((await running.exited).code).toBe(2);
    expect(failure(running).join('\n')).toMatch(/permission denied for table collect_outbox/);
    expect((await outboxRows(url)).map((row) => row.relay_state)).toEqual(['sent', null]);
  });

  it('a second SIGTERM ends a relay whose database does not answer (exit 130)', async () => {
    const url = await outbox();
    const http = await gatedService();
    const running = relay([
      '--from',
      url,
      '--base-url',
      http.url,
      '--poll-interval',
      '50',
      '--metrics-port',
      '0',
    ]);
    const at = await port(running);
    await running.waitFor((line) => line.state === 'buckets');
    const locker = await session(url);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE collect_outbox IN ACCESS EXCLUSIVE MODE');
    cleanups.push(() => locker.query('ROLLBACK'));
    const blocked = async () =>
      (
        await locker.query(`SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'collect relay' AND wait_event_type = 'Lock'`)
      ).rowCount === 1;
    await whileRunning(running, blocked);

    running.child.kill('SIGTERM');
    await whileRunning(running, async () => (await probe(at, '/readyz')) === 503);
    running.child.kill('SIGTERM');
    expect((await running.exited).code).toBe(130);
  });
});

describeWith('postgres')('collect relay on hostile outbox rows', { timeout: 60_000 }, () => {
  it(
    'dead-letters 20 MB rows as too large without loading them (a 64 MB heap), and sends the events ' +
      'behind them',
    async () => {
      const url = await outbox();
      const http = await gatedService();
      http.open();
      const admin = await session(url);
      await admin.query(
        `INSERT INTO collect_outbox (endpoint, body)
       SELECT 'order', $1::jsonb || jsonb_build_object('id', 'BIG-' || i, 'note', repeat('x', 20 * 1024 * 1024))
         FROM generate_series(1, 4) AS i`,
        [orderRecord('')],
      );
      await insertEvents(url, [creation('SMALL-1'), status('SMALL-1')]);
      const running = relay(['--from', url, '--base-url', http.url, '--poll-interval', '50'], undefined, [
        '--max-old-space-size=64',
      ]);
      // The bodies stay in the database: the test reads the relay's columns only.
      const states = async () =>
        (
          await admin.query<{
            id: string;
            relay_state: string | null;
            code: string | null;
            message: string | null;
          }>(
            `SELECT id, relay_state, relay_reason->>'code' AS code, relay_reason->>'message' AS message
             FROM collect_outbox ORDER BY id`,
          )
        ).rows;
      await whileRunning(running, async () => (await states()).every((row) => row.relay_state !== null));
      const rows = await states();
      expect(rows.map((row) => `${row.id} ${row.relay_state} ${row.code ?? ''}`.trim())).toEqual([
        '1 dead record-too-large',
        '2 dead record-too-large',
        '3 dead record-too-large',
        '4 dead record-too-large',
        '5 sent',
        '6 sent',
      ]);
      expect(rows[0]!.message).toMatch(/over the limit of 1,048,576 bytes/);
      expect(http.requests.map((request) => request.body.length < 10_000)).toEqual([true, true]);
    },
  );

  it('labels its metrics with the five endpoints and other, whatever the endpoint column says', async () => {
    const url = await outbox();
    const http = await gatedService();
    http.open();
    await insertEvents(url, [
      creation('M-1'),
      ...Array.from({ length: 40 }, (_, i) => ({ endpoint: `bogus-${i}`, body: { id: `M-${i}` } })),
    ]);
    const running = relay([
      '--from',
      url,
      '--base-url',
      http.url,
      '--poll-interval',
      '50',
      '--metrics-port',
      '0',
    ]);
    const at = await port(running);
    await whileRunning(running, async () => (await outboxRows(url)).every((row) => row.relay_state !== null));
    const text = await (await fetch(`http://127.0.0.1:${at}/metrics`)).text();
    const series = text.split('\n').filter((line) => line.startsWith('collect_relay_events_total{'));
    expect(series.sort()).toEqual([
      'collect_relay_events_total{endpoint="order",outcome="sent"} 1',
      'collect_relay_events_total{endpoint="other",outcome="dead"} 40',
    ]);
  });
});

describe('collect relay --from - on hostile lines', { timeout: 60_000 }, () => {
  it('dead-letters a line nested 100,000 deep as too-deep and relays the lines after it', async () => {
    const http = await gatedService();
    http.open();
    const deep = `{"endpoint":"status","body":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const input = [JSON.stringify(creation('D-1')), deep, JSON.stringify(status('D-1'))].join('\n');
    const running = relay(['--from', '-', '--base-url', http.url, '--state', tmpState('deep')], input);
    const end = await running.exited;
    expect(failure(running).join('\n')).not.toMatch(/RangeError|at /);
    expect(end.code).toBe(1); // some event was dead-lettered
    const dead = running
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { line: number; state: string; reason: { code: string } });
    expect(dead.map((letter) => `${letter.line} ${letter.state} ${letter.reason.code}`)).toEqual([
      '2 dead too-deep',
    ]);
    expect(http.requests.map((request) => `${request.method} ${request.path}`)).toHaveLength(2);
  });
});
