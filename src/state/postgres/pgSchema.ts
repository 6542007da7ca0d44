import type pg from 'pg';
import type { RememberedTable } from '../../resources/resource.js';
import { keyColumns, lookupIndex } from '../declared.js';
import { pgCoreSql } from './pgCoreSql.js';
import { StateError } from '../stateErrors.js';

/** The schema version of a PostgreSQL state this collect writes: a new one is made at it from coreTables.ts. */
export const PG_SCHEMA_VERSION = 1;

/** Steps that bring a state of an older version to PG_SCHEMA_VERSION (`pgUpgrades[i]`: i + 1 to i + 2); none yet. */
const pgUpgrades: readonly string[] = [];

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
      if (table.lookup)
        await client.query(
          `CREATE INDEX IF NOT EXISTS collect_${lookupIndex(table)} ON ${pgTable(table)} ` +
            `(namespace, ${table.lookup.join(', ')})`,
        );
    }
    await client.query('COMMIT');
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw cause;
  }
}
