import pg from 'pg';
import { afterAll, describe, expect } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../../test/helpers/postgres.js';
import { PgGroupWriter } from './pgGroupWriter.js';
import { migratePostgres } from './pgSchema.js';
import { PgWriteGroup } from './pgWrites.js';
import { itWith } from '../../../test/helpers/withPrerequisite.js';

// Started before the tests are collected, so that a missing server can skip them (never in CI).
const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());
const withPostgres = () => itWith('postgres');

/** Two connections to a fresh database, each telling when a transaction of its starts and ends. */
async function connections(events: string[]): Promise<pg.Client[]> {
  const url = await server!.database();
  const clients = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  for (const client of clients) await client.connect();
  await migratePostgres(clients[0]!, 'test');
  for (const [i, client] of clients.entries()) {
    const query = client.query.bind(client) as (request: unknown) => Promise<unknown>;
    Object.assign(client, {
      // Names the first order a transaction creates (its first array literal: pgWrites.ts statements()).
      query: async (request: unknown) => {
        const what = (typeof request === 'string' ? /ARRAY\['([^']*)'/.exec(request)?.[1] : undefined) ?? '?';
        events.push(`start ${what} on ${i}`);
        try {
          return await query(request);
        } finally {
          events.push(`end ${what}`);
        }
      },
    });
  }
  return clients;
}

function creation(orderId: string, status = 'pending'): PgWriteGroup {
  const group = new PgWriteGroup('ns', '2025-01-01T00:00:00.000Z');
  group.writes.createOrder({ orderId, hash: `h-${orderId}`, evaluate: false, status });
  return group;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the PostgreSQL state group writer', () => {
  withPostgres()(
    'writes the groups that came while a transaction was in flight in one transaction',
    async () => {
      const events: string[] = [];
      const clients = await connections(events);
      const writer = new PgGroupWriter(clients[0]!);
      writer.enqueue(creation('A'));
      await turn();
      for (const id of ['B', 'C', 'D']) writer.enqueue(creation(id));
      await writer.settled();
      expect(events.filter((e) => e.startsWith('start'))).toEqual(['start A on 0', 'start B on 0']);
      const rows = (await clients[0]!.query(
        'SELECT count(*)::int AS n FROM collect_orders',
      )) as pg.QueryResult;
      expect(rows.rows).toEqual([{ n: 4 }]);
      for (const client of clients) await client.end();
    },
  );
  withPostgres()('writes nothing more once a transaction failed, and says so', async () => {
    const clients = await connections([]);
    const writer = new PgGroupWriter(clients[0]!);
    const bad = new PgWriteGroup('ns', 'not a time');
    bad.journalWrite('h1', 'order', 'A', 'accepted');
    writer.enqueue(bad);
    await writer.settled();
    writer.enqueue(creation('B'));
    await writer.settled();
    expect(writer.failed).toBeInstanceOf(Error);
    const rows = (await clients[0]!.query('SELECT count(*)::int AS n FROM collect_orders')) as pg.QueryResult;
    expect(rows.rows).toEqual([{ n: 0 }]);
    for (const client of clients) await client.end();
  });
});
