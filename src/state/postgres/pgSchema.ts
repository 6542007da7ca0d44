import type pg from 'pg';
import type { RememberedTable } from '../../resources/resource.js';
import { keyColumns, lookupIndex } from '../declared.js';
import { StateError } from '../stateErrors.js';

/**
 * The PostgreSQL state's schema, one step per version: the SQLite state's tables, each with the
 * namespace of its service (one database serves many) and the order's shard key (shards load only theirs).
 */
export const pgMigrations: readonly string[] = [
  `CREATE TABLE collect_orders (
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
     heartbeat TIMESTAMPTZ NOT NULL, backend_pid INTEGER NOT NULL, PRIMARY KEY (namespace, name));`,
];

/** Any number, the same for every collect: the advisory lock under which the schema is brought up to date. */
const MIGRATION_LOCK = 4_107_202_613;

/** Brings the schema up to date in one transaction, under an advisory lock: two first runs cannot both migrate. */
export async function migratePostgres(client: pg.ClientBase, where: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS collect_schema (version INTEGER NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM collect_schema');
    const version = rows[0]?.version ?? 0;
    if (version > pgMigrations.length) {
      throw new StateError(
        `the state ${where} was written by a newer collect (schema ${version}, this one knows ${pgMigrations.length})`,
        'upgrade collect, or use another --state',
      );
    }
    for (const step of pgMigrations.slice(version)) await client.query(step);
    if (rows.length === 0)
      await client.query('INSERT INTO collect_schema (version) VALUES ($1)', [pgMigrations.length]);
    else await client.query('UPDATE collect_schema SET version = $1', [pgMigrations.length]);
    await client.query('COMMIT');
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw cause;
  }
}

/** A declared table's name in PostgreSQL. */
export const pgTable = (table: RememberedTable): string => `collect_${table.name}`;

/** The DDL of a declared table: its namespace and shard key first, as every table of this state. */
export function pgCreateSql(table: RememberedTable): string {
  const columns = table.columns.map((column, i) => `${column} TEXT${i < table.key ? ' NOT NULL' : ''}`);
  const key = ['namespace', ...keyColumns(table)];
  return `CREATE TABLE IF NOT EXISTS ${pgTable(table)} (namespace TEXT NOT NULL, order_id TEXT NOT NULL, shard_key BIGINT NOT NULL,
    ${[...columns, `PRIMARY KEY (${key.join(', ')})`].join(', ')})`;
}

/** Makes the tables resources declare as declared (a missing table or column is added), under the migration lock. */
export async function migrateDeclared(
  client: pg.ClientBase,
  tables: readonly RememberedTable[],
): Promise<void> {
  if (tables.length === 0) return;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    for (const table of tables) {
      await client.query(pgCreateSql(table));
      for (const column of table.columns)
        await client.query(`ALTER TABLE ${pgTable(table)} ADD COLUMN IF NOT EXISTS ${column} TEXT`);
      if (table.lookup)
        await client.query(
          `CREATE INDEX IF NOT EXISTS collect_${lookupIndex(table)} ON ${pgTable(table)} (namespace, ${table.lookup.join(', ')})`,
        );
    }
    await client.query('COMMIT');
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw cause;
  }
}
