import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../../test/helpers/postgres.js';
import { migratePostgres } from './pgSchema.js';

// Started before the tests are collected, so that a missing server can skip them (never in CI).
const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());
const withPostgres = () => (server ? it : it.skip);

/** The core tables as collect 0.1.0 wrote them by hand: a state it made must keep working. */
const RELEASED = `CREATE TABLE collect_orders (
     namespace TEXT NOT NULL, order_id TEXT NOT NULL, shard_key BIGINT NOT NULL, hash TEXT NOT NULL,
     evaluate BOOLEAN NOT NULL, decision TEXT, last_status TEXT, PRIMARY KEY (namespace, order_id));
   CREATE TABLE collect_order_payments (
     namespace TEXT NOT NULL, order_id TEXT NOT NULL, shard_key BIGINT NOT NULL, payment_id TEXT NOT NULL,
     acquirer_id TEXT, updated_acquirer_id TEXT, PRIMARY KEY (namespace, order_id, payment_id));
   CREATE TABLE collect_order_deliveries (
     namespace TEXT NOT NULL, order_id TEXT NOT NULL, shard_key BIGINT NOT NULL, delivery_id TEXT NOT NULL,
     PRIMARY KEY (namespace, order_id, delivery_id));
   CREATE TABLE collect_fraud_marks (
     namespace TEXT NOT NULL, order_id TEXT NOT NULL, shard_key BIGINT NOT NULL, signal_type TEXT NOT NULL,
     PRIMARY KEY (namespace, order_id, signal_type));
   CREATE TABLE collect_journal (
     namespace TEXT NOT NULL, hash TEXT NOT NULL, shard_key BIGINT NOT NULL, endpoint TEXT NOT NULL, order_id TEXT,
     outcome TEXT NOT NULL, at TIMESTAMPTZ NOT NULL, PRIMARY KEY (namespace, hash));
   CREATE TABLE collect_decisions (
     namespace TEXT NOT NULL, order_id TEXT NOT NULL, shard_key BIGINT NOT NULL, decision TEXT NOT NULL,
     source TEXT NOT NULL, at TIMESTAMPTZ NOT NULL, PRIMARY KEY (namespace, order_id));
   CREATE TABLE collect_run_locks (
     namespace TEXT NOT NULL, name TEXT NOT NULL, shard_index INTEGER, shard_count INTEGER, token TEXT NOT NULL,
     host TEXT NOT NULL, pid INTEGER NOT NULL, command TEXT NOT NULL, since TIMESTAMPTZ NOT NULL,
     heartbeat TIMESTAMPTZ NOT NULL, backend_pid INTEGER NOT NULL, PRIMARY KEY (namespace, name));`;

/** Every collect_ table's columns in order (name, type, nullable) and its primary key's columns. */
async function schemaOf(client: pg.Client): Promise<unknown> {
  const columns = await client.query(
    `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name LIKE 'collect\\_%' AND table_name <> 'collect_schema'
      ORDER BY table_name, ordinal_position`,
  );
  const keys = await client.query(
    `SELECT k.table_name, k.column_name, k.ordinal_position FROM information_schema.key_column_usage k
       JOIN information_schema.table_constraints c ON c.constraint_name = k.constraint_name
      WHERE c.constraint_type = 'PRIMARY KEY' AND k.table_schema = 'public'
      ORDER BY k.table_name, k.ordinal_position`,
  );
  return { columns: columns.rows, keys: keys.rows };
}

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: await server!.database() });
  await client.connect();
  return client;
}

describe('the PostgreSQL core tables, made from their declaration (coreTables.ts)', () => {
  withPostgres()(
    'are the tables collect 0.1.0 made by hand brought up to date, column for column',
    async () => {
      const released = await connect();
      await released.query(RELEASED);
      await released.query(
        'CREATE TABLE collect_schema (version INTEGER NOT NULL); INSERT INTO collect_schema VALUES (1)',
      );
      await migratePostgres(released, 'test');
      const made = await connect();
      await migratePostgres(made, 'test');
      const want = await schemaOf(released);
      expect(await schemaOf(made)).toEqual(want);
      expect((want as { columns: unknown[] }).columns).toHaveLength(48);
      await released.end();
      await made.end();
    },
  );
});
