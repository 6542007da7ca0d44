/**
 * `collect relay` end to end: a real PostgreSQL outbox, a real HTTP service on 127.0.0.1, real
 * processes killed with SIGKILL and SIGTERM.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { orderRecord } from './helpers/history.js';
import { startServer, type SeenRequest } from './helpers/localServer.js';
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

function relay(args: string[], stdin?: string): RelayProcess {
  const process = startRelay(args, stdin);
  cleanups.push(() => {
    if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
    return process.exited;
  });
  return process;
}

/** `collect relay init` and `relay retry`, in this process (the relay itself runs from dist/). */
async function cli(args: string[]): Promise<string> {
  const result = await runCli(args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

/** Accepts every request but the first creation of an order named REFUSED-*, which it refuses (400). */
async function service(delayMs = 0) {
  const refused = new Set<string>();
  const http = await startServer((request) => {
    const body = JSON.parse(request.body) as { id?: string; user?: unknown };
    if (request.method === 'POST' && body.user && body.id?.startsWith('REFUSED-') && !refused.has(body.id)) {
      refused.add(body.id);
      return { status: 400, body: { message: 'user.id unknown' } };
    }
    return { status: 201, body: { message: 'ok' }, delayMs };
  });
  cleanups.push(http.close);
  return http;
}

async function outbox(): Promise<string> {
  const url = await server!.database();
  expect(await cli(['relay', 'init', '--from', url])).toContain('is ready for collect relay');
  return url;
}

const creation = (id: string, extra: object = {}) => ({ endpoint: 'order', body: orderRecord(id, extra) });
const status = (id: string, value = 'approved') => ({ endpoint: 'status', body: { id, status: value } });

/** Each request as `METHOD order-id` (the order's id from its body). */
const seen = (requests: SeenRequest[]) =>
  requests.map((request) => {
    const body = JSON.parse(request.body) as { id?: string; order_id?: string };
    return `${request.method} ${body.order_id ?? body.id}`;
  });

/** Inserts an event in a transaction left open (its id taken, the row unseen); resolves to its commit. */
async function uncommitted(
  url: string,
  event: { endpoint: string; body: object },
): Promise<() => Promise<unknown>> {
  const slow = new pg.Client({ connectionString: url });
  await slow.connect();
  cleanups.push(() => slow.end());
  await slow.query('BEGIN');
  await slow.query('INSERT INTO collect_outbox (endpoint, body) VALUES ($1, $2)', [
    event.endpoint,
    event.body,
  ]);
  return () => slow.query('COMMIT');
}

const allSettled = (url: string) => async () =>
  (await outboxRows(url)).every((row) => row.relay_state !== null);

// Each test starts processes and a database: generous timeouts on a loaded machine, no timing asserted.
describeWith('postgres')('collect relay over a PostgreSQL outbox', { timeout: 90_000 }, () => {
  it(
    'sends in flow order, dead-letters invalid events without blocking others, holds an order behind ' +
      'its dead creation until retry',
    async () => {
      const url = await outbox();
      const http = await service();
      await insertEvents(url, [
        status('ORD-A'), // 1: before its creation in the outbox; sent after it
        creation('ORD-A'), // 2
        creation('ORD-B'), // 3
        creation('ORD-C', { total_paid_value: 'ten' }), // 4: invalid creation
        status('ORD-C'), // 5: held behind it
        status('ORD-B', 'bogus'), // 6: invalid status
        creation('ORD-D'), // 7
        status('ORD-B', 'declined'), // 8: after the dead-lettered 6, not blocked by it
        creation('REFUSED-E'), // 9: the service refuses it (400) the first time
        status('REFUSED-E'), // 10: held behind it
      ]);
      const running = relay(['--from', url, '--base-url', http.url, '--poll-interval', '50']);
      await until(allSettled(url));
      const rows = await outboxRows(url);
      expect(
        rows.map((row) => `${row.id} ${row.relay_state} ${row.relay_reason?.code ?? ''}`.trim()),
      ).toEqual([
        '1 sent',
        '2 sent',
        '3 sent',
        expect.stringMatching(/^4 dead \S+$/),
        '5 held order-held',
        expect.stringMatching(/^6 dead \S+$/),
        '7 sent',
        '8 sent',
        '9 dead rejected-by-service',
        '10 held order-held',
      ]);
      expect(rows[4]!.relay_reason!.message).toContain('collect relay retry --id 4');
      const requests = seen(http.requests);
      expect(requests).not.toContain('POST ORD-C');
      expect(requests.indexOf('POST ORD-A')).toBeLessThan(requests.indexOf('PUT ORD-A'));
      expect([...requests].sort()).toEqual([
        'POST ORD-A',
        'POST ORD-B',
        'POST ORD-D',
        'POST REFUSED-E',
        'PUT ORD-A',
        'PUT ORD-B',
      ]);

      // The dead letter names the rule and where it stands: file = table, line = outbox id.
      const dead = running.logs.find((line) => line.state === 'dead' && line.id === 4)!;
      expect(dead).toMatchObject({ endpoint: 'order', order: 'ORD-C' });

      // Fixed in the outbox, re-queued: the creation goes, then the status held behind it.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`UPDATE collect_outbox SET body = $1 WHERE id = 4`, [orderRecord('ORD-C')]);
      await client.end();
      expect(await cli(['relay', 'retry', '--from', url, '--id', '4'])).toContain(
        're-queued 1 dead-lettered event and 1 held behind it',
      );
      await until(allSettled(url));
      // Re-queued without --id: every dead letter (the refused creation 9, and 6 again) and what they hold.
      expect(await cli(['relay', 'retry', '--from', url])).toContain(
        're-queued 2 dead-lettered events and 1 held',
      );
      await until(allSettled(url));
      const after = await outboxRows(url);
      expect(after.map((row) => `${row.id} ${row.relay_state}`)).toEqual([
        '1 sent',
        '2 sent',
        '3 sent',
        '4 sent',
        '5 sent',
        '6 dead',
        '7 sent',
        '8 sent',
        '9 sent',
        '10 sent',
      ]);
      const final = seen(http.requests);
      expect(final.indexOf('POST ORD-C')).toBeGreaterThan(-1);
      expect(final.indexOf('POST ORD-C')).toBeLessThan(final.indexOf('PUT ORD-C'));
      expect(final.lastIndexOf('POST REFUSED-E')).toBeLessThan(final.indexOf('PUT REFUSED-E'));

      running.child.kill('SIGTERM');
      expect((await running.exited).code).toBe(0);
    },
  );

  it(
    "sends an order's creation first when it commits after later ids were read (a NOTIFY's read " +
      'misses no row)',
    async () => {
      const url = await outbox();
      const http = await service();
      // A long poll interval: only the NOTIFYs' reads can find the rows here.
      const running = relay(['--from', url, '--base-url', http.url, '--poll-interval', '60000']);
      await running.waitFor((line) => line.state === 'buckets');
      // The creation of LATE-1 takes its id first but commits last, after another order's row was relayed.
      const commit = await uncommitted(url, creation('LATE-1'));
      await insertEvents(url, [creation('EARLY-1')]);
      await running.waitFor((line) => line.state === 'sent' && line.order === 'EARLY-1');
      await commit();
      // The application writes the status change once its creation has committed, as a shop does.
      await insertEvents(url, [status('LATE-1')]);
      await until(async () => (await outboxRows(url)).every((row) => row.relay_state !== null), 20);
      expect((await outboxRows(url)).map((row) => `${row.id} ${row.relay_state}`)).toEqual([
        '1 sent',
        '2 sent',
        '3 sent',
      ]);
      expect(seen(http.requests)).toEqual(['POST EARLY-1', 'POST LATE-1', 'PUT LATE-1']);
    },
  );

  it(
    'waits a little for a creation that commits after its status change (two transactions of the ' +
      'application)',
    async () => {
      const url = await outbox();
      const http = await service();
      const running = relay(['--from', url, '--base-url', http.url, '--poll-interval', '100']);
      await insertEvents(url, [creation('FIRST-1')]);
      await running.waitFor((line) => line.state === 'sent' && line.order === 'FIRST-1');
      const commit = await uncommitted(url, creation('LATE-2'));
      await insertEvents(url, [status('LATE-2')]);
      await running.waitFor((line) => line.state === 'deferred' && line.order === 'LATE-2');
      await commit();
      await until(async () => (await outboxRows(url)).every((row) => row.relay_state !== null), 20);
      expect((await outboxRows(url)).map((row) => `${row.id} ${row.relay_state}`)).toEqual([
        '1 sent',
        '2 sent',
        '3 sent',
      ]);
      expect(seen(http.requests)).toEqual(['POST FIRST-1', 'POST LATE-2', 'PUT LATE-2']);
    },
  );

  it(
    'after kill -9 a restart loses nothing and sends at most --concurrency events twice; SIGTERM ' +
      'drains and exits 0',
    async () => {
      const url = await outbox();
      const http = await service(20);
      const orders = Array.from({ length: 40 }, (_, i) => `K-${i}`);
      await insertEvents(
        url,
        orders.flatMap((id) => [creation(id), status(id)]),
      );
      const args = ['--from', url, '--base-url', http.url, '--concurrency', '4', '--poll-interval', '50'];
      const first = relay(args);
      await until(() => http.requests.length >= 25, 5);
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      const sentBefore = http.requests.length;
      expect(sentBefore).toBeLessThan(80);

      const second = relay(args);
      await until(allSettled(url));
      expect((await outboxRows(url)).every((row) => row.relay_state === 'sent')).toBe(true);
      const bodies = http.requests.map((request) => `${request.method} ${request.body}`);
      const duplicates = bodies.length - new Set(bodies).size;
      expect(new Set(bodies).size).toBe(80);
      expect(duplicates).toBeLessThanOrEqual(4);
      // Every order's creation went before its status change, resends included.
      const requests = seen(http.requests);
      for (const id of orders)
        expect(requests.indexOf(`POST ${id}`)).toBeLessThan(requests.indexOf(`PUT ${id}`));

      second.child.kill('SIGTERM');
      const end = await second.exited;
      expect(end.code).toBe(0);
      expect(second.logs.at(-1)).toMatchObject({ state: 'stopped' });
    },
  );

  it(
    'two replicas share the orders, each order served by one; a replica killed hands its orders to ' +
      'the other',
    async () => {
      const url = await outbox();
      const http = await service(5);
      const args = ['--from', url, '--base-url', http.url, '--poll-interval', '100'];
      const one = relay(args);
      await one.waitFor((line) => line.state === 'buckets');
      const two = relay(args);
      await two.waitFor((line) => line.state === 'buckets' && line.buckets === 16);
      await until(() => one.logs.filter((line) => line.state === 'buckets').at(-1)?.buckets === 16);

      const batch = (from: number, count: number) =>
        Array.from({ length: count }, (_, i) => `R-${from + i}`).flatMap((id) => [creation(id), status(id)]);
      await Promise.all([insertEvents(url, batch(0, 30)), insertEvents(url, batch(30, 30))]);
      await until(allSettled(url));
      const sentBy = (replica: RelayProcess) =>
        new Set(replica.logs.filter((line) => line.state === 'sent').map((line) => line.order as string));
      const [byOne, byTwo] = [sentBy(one), sentBy(two)];
      expect(byOne.size).toBeGreaterThan(0);
      expect(byTwo.size).toBeGreaterThan(0);
      for (const order of byOne) expect(byTwo.has(order)).toBe(false);
      expect(http.requests).toHaveLength(120);

      one.child.kill('SIGKILL');
      await one.exited;
      await insertEvents(url, batch(60, 20));
      await until(allSettled(url));
      expect((await outboxRows(url)).every((row) => row.relay_state === 'sent')).toBe(true);
      const requests = seen(http.requests);
      expect(new Set(requests).size).toBe(160);
      for (let i = 60; i < 80; i++)
        expect(requests.indexOf(`POST R-${i}`)).toBeLessThan(requests.indexOf(`PUT R-${i}`));
      two.child.kill('SIGTERM');
      expect((await two.exited).code).toBe(0);
    },
  );
});

describe('collect relay --from -', { timeout: 60_000 }, () => {
  it('relays NDJSON events from standard input and writes the dead letters to standard output (exit 1)', async () => {
    const http = await service();
    const input = [
      JSON.stringify(status('S-1')),
      JSON.stringify(creation('S-1')),
      'not json',
      JSON.stringify(status('S-2', 'bogus')),
    ].join('\n');
    const running = relay(
      ['--from', '-', '--base-url', http.url, '--state', join(tempDir('collect-relay-stdin-'), 'state')],
      input,
    );
    const end = await running.exited;
    expect(end.code).toBe(1);
    expect(seen(http.requests)).toEqual(['POST S-1', 'PUT S-1']);
    const dead = running
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { line: number; state: string; reason: { code: string } });
    expect(dead.map((letter) => `${letter.line} ${letter.state}`)).toEqual(['3 dead', '4 dead']);
    expect(dead[0]!.reason.code).toBe('invalid-event');
  });
});
