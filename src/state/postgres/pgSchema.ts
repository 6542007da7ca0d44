import type pg from 'pg';
import type { RememberedTable } from '../../resources/resource.js';
import { keyColumns } from '../declared.js';
import { pgCoreSql } from './pgCoreSql.js';
import { StateError } from '../stateErrors.js';

/** The schema version of a PostgreSQL state this collect writes: a new one is made at it from coreTables.ts. */
export const PG_SCHEMA_VERSION = 2;

/** Steps that bring a state of an older version to PG_SCHEMA_VERSION (`pgUpgrades[i]`: i + 1 to i + 2). */
const pgUpgrades: readonly string[] = [
  // 2: a card payment's card key on its payment row, not in a table of its own (collect_order_cards, which a
  // state of schema 1 may hold): one row per payment to write.
  `ALTER TABLE collect_order_payments ADD COLUMN IF NOT EXISTS last_four TEXT,
     ADD COLUMN IF NOT EXISTS value_cents TEXT, ADD COLUMN IF NOT EXISTS sale_date TEXT;
   CREATE TABLE IF NOT EXISTS collect_order_cards (namespace TEXT NOT NULL, order_id TEXT NOT NULL,
     payment_id TEXT NOT NULL, last_four TEXT, value_cents TEXT, sale_date TEXT);
   UPDATE collect_order_payments p SET last_four = c.last_four, value_cents = c.value_cents, sale_date = c.sale_date
     FROM collect_order_cards c
    WHERE c.namespace = p.namespace AND c.order_id = p.order_id AND c.payment_id = p.payment_id;
   DROP TABLE collect_order_cards;`,
];

/** Any number, the same for every collect: the advisory lock under which the schema is brought up to date. */
const MIGRATION_LOCK = 4_107_202_613;

/**
 * Makes the schema, or brings it up to date, in one transaction, under an advisory lock: two first runs
 * cannot both migrate.
 */
export async function migratePostgres(client: pg.ClientBase, where: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS collect_schema (version INTEGER NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM collect_schema');
    const version = rows[0]?.version ?? 0;
    if (version > PG_SCHEMA_VERSION) {
      throw new StateError(
        `the state ${where} was written by a newer collect (schema ${version}, this one knows ${PG_SCHEMA_VERSION})`,
        'upgrade collect, or use another --state',
      );
    }
    if (version === 0) await client.query(pgCoreSql());
    else for (const step of pgUpgrades.slice(version - 1)) await client.query(step);
    if (rows.length === 0)
      await client.query('INSERT INTO collect_schema (version) VALUES ($1)', [PG_SCHEMA_VERSION]);
    else await client.query('UPDATE collect_schema SET version = $1', [PG_SCHEMA_VERSION]);
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
  return `CREATE TABLE IF NOT EXISTS ${pgTable(table)} (namespace TEXT NOT NULL, order_id TEXT NOT NULL, \
shard_key BIGINT NOT NULL,
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
    }
    await client.query('COMMIT');
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw cause;
  }
}
