import pg from 'pg';
import { UsageError } from '../core/errors.js';
import type { Registry } from '../resources/registry.js';

/** The outbox table a relay reads, named safely for SQL. */
export interface OutboxTable {
  /** As given (`collect_outbox`, `app.collect_outbox`), for messages and issues' file. */
  name: string;
  /** Quoted for SQL. */
  sql: string;
  /** The NOTIFY channel its trigger signals. */
  channel: string;
}

const NAME = /^([a-z_][a-z0-9_]{0,62}\.)?[a-z_][a-z0-9_]{0,62}$/;

/** A `--table` value: lower-case letters, digits and _, optionally schema-qualified; anything else is refused. */
export function outboxTable(name: string): OutboxTable {
  if (!NAME.test(name))
    throw new UsageError(
      `--table ${JSON.stringify(name)} is not a plain table name`,
      'use lower-case letters, digits and _ (schema.table allowed), e.g. --table collect_outbox',
    );
  const parts = name.split('.');
  return {
    name,
    sql: parts.map((part) => pg.escapeIdentifier(part)).join('.'),
    channel: `${parts.at(-1)}_relay`,
  };
}

/** The relay's own columns on the outbox: NULL relay_state is pending; 'sent', 'dead', 'held' are settled. */
const RELAY_COLUMNS = `
  ADD COLUMN IF NOT EXISTS relay_state text,
  ADD COLUMN IF NOT EXISTS relay_reason jsonb,
  ADD COLUMN IF NOT EXISTS relay_order text,
  ADD COLUMN IF NOT EXISTS relay_at timestamptz`;

/**
 * Creates the outbox (if missing), the relay's columns, the index of pending events and the NOTIFY trigger;
 * safe to run again.
 */
export async function initOutbox(client: pg.Client, table: OutboxTable): Promise<void> {
  const bare = table.name.split('.').at(-1)!;
  const fn = table.sql.replace(/"([^"]+)"$/, (_, last: string) => pg.escapeIdentifier(`${last}_notify`));
  await client.query('BEGIN');
  try {
    // Two relays' inits at once must not race on CREATE: one waits for the other.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext(${pg.escapeLiteral(table.name)}))`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${table.sql} (
      id bigserial PRIMARY KEY,
      endpoint text NOT NULL,
      body jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await client.query(`ALTER TABLE ${table.sql} ${RELAY_COLUMNS}`);
    await client.query(
      `CREATE INDEX IF NOT EXISTS ${pg.escapeIdentifier(`${bare}_relay_pending`)} ON ${table.sql} ` +
        `(id) WHERE relay_state IS NULL`,
    );
    await client.query(
      `CREATE INDEX IF NOT EXISTS ${pg.escapeIdentifier(`${bare}_relay_order`)} ON ${table.sql} ` +
        `(relay_order) WHERE relay_state IN ('dead', 'held')`,
    );
    // One NOTIFY per inserting statement (not per row): a burst wakes the relays once.
    await client.query(`CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify(${pg.escapeLiteral(table.channel)}, ''); RETURN NULL; END $$`);
    await client.query(`DROP TRIGGER IF EXISTS ${pg.escapeIdentifier(`${bare}_notify`)} ON ${table.sql}`);
    await client.query(
      `CREATE TRIGGER ${pg.escapeIdentifier(`${bare}_notify`)} AFTER INSERT ON ${table.sql} FOR ` +
        `EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    );
    await client.query('COMMIT');
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw cause;
  }
}

/** Refuses an outbox the relay cannot read (missing, or without the relay's columns), saying to run init. */
export async function checkOutbox(client: pg.Client, table: OutboxTable, where: string): Promise<void> {
  const found = await client.query<{ column_name: string }>(
    `SELECT attname AS column_name FROM pg_attribute
      WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped`,
    [table.sql],
  );
  const columns = new Set(found.rows.map((row) => row.column_name));
  const missing = [
    'id',
    'endpoint',
    'body',
    'created_at',
    'relay_state',
    'relay_reason',
    'relay_order',
  ].filter((column) => !columns.has(column));
  if (missing.length === 0) return;
  throw new UsageError(
    columns.size === 0
      ? `there is no outbox table ${table.name} in ${where}`
      : `the outbox ${table.name} in ${where} lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`,
    `run collect relay init --from URL` +
      `${table.name === 'collect_outbox' ? '' : ` --table ${table.name}`} once (it creates the table ` +
      `or adds the relay's columns)`,
  );
}

/**
 * The order id of a row, in SQL: the field each endpoint names its order by (`id` of a creation
 * or status change, `order_id` of the others), from the registry.
 */
export function orderIdSql(registry: Registry): string {
  const cases = registry.all
    .map(
      (resource) =>
        `WHEN ${pg.escapeLiteral(resource.name)} THEN body->>${pg.escapeLiteral(resource.orderField)}`,
    )
    .join(' ');
  return `coalesce(CASE endpoint ${cases} END, '')`;
}

/**
 * Re-queues dead-lettered events (all of them, or those of `ids`, held ones included) and the events
 * held behind them (their orders' later events), in one transaction, then wakes the relays.
 */
export async function requeue(
  client: pg.Client,
  table: OutboxTable,
  ids: readonly number[] | undefined,
): Promise<{ chosen: number; held: number }> {
  const settled = 'relay_state = NULL, relay_reason = NULL, relay_at = now()';
  await client.query('BEGIN');
  try {
    const chosen = await client.query<{ relay_order: string | null }>(
      ids === undefined
        ? `UPDATE ${table.sql} SET ${settled} WHERE relay_state = 'dead' RETURNING relay_order`
        : `UPDATE ${table.sql} SET ${settled} WHERE relay_state IN ('dead', 'held') AND id = ` +
            `ANY($1::bigint[]) RETURNING relay_order`,
      ids === undefined ? [] : [ids],
    );
    const orders = [...new Set(chosen.rows.map((row) => row.relay_order).filter((order) => order !== null))];
    const held = await client.query(
      `UPDATE ${table.sql} SET ${settled} WHERE relay_state = 'held' AND relay_order = ANY($1::text[])`,
      [orders],
    );
    await client.query(`SELECT pg_notify($1, '')`, [table.channel]);
    await client.query('COMMIT');
    return { chosen: chosen.rowCount ?? 0, held: held.rowCount ?? 0 };
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw cause;
  }
}
