/**
 * What a column holds; each backend stores it its own way (sqlite/coreSql.ts, postgres/pgSchema.ts):
 * SQLite keeps rows compact (compactRows.ts), PostgreSQL keeps them readable.
 */
export type CoreColumnType = 'text' | 'integer' | 'hash' | 'flag' | 'outcome' | 'instant' | 'isoTime';

export interface CoreColumn {
  name: string;
  type: CoreColumnType;
  /** May be NULL. */
  optional?: true;
  /** Kept by one backend only (the PostgreSQL journal keeps the endpoint and the order for people reading it). */
  only?: 'sqlite' | 'postgres';
}

/** A table every state keeps whatever resources it serves, declared as data as `Resource.tables` are. */
export interface CoreTable {
  name: string;
  columns: readonly CoreColumn[];
  /** The primary key's columns; PostgreSQL puts the namespace first. */
  key: readonly string[];
  /** Rows belong to an order: PostgreSQL adds the shard key after the first key column. */
  sharded: boolean;
  /** SQLite keeps it as a rowid table (small tables written by hand); the rest are WITHOUT ROWID. */
  rowid?: true;
  only?: 'sqlite';
  /** SQLite's secondary indexes: name and columns. */
  indexes?: readonly { name: string; columns: readonly string[] }[];
}

const text = (name: string, optional?: true): CoreColumn =>
  optional ? { name, type: 'text', optional } : { name, type: 'text' };

/** The card key's columns of order_payments, in the order a lookup gives their values. */
export const CARD_COLUMNS = ['last_four', 'value_cents', 'sale_date'] as const;

/** The core tables, in the order they are made. */
export const coreTables: readonly CoreTable[] = [
  {
    name: 'meta',
    columns: [text('key'), text('value')],
    key: ['key'],
    sharded: false,
    rowid: true,
    only: 'sqlite',
  },
  {
    name: 'run_locks',
    columns: [
      text('name'),
      { name: 'shard_index', type: 'integer', optional: true },
      { name: 'shard_count', type: 'integer', optional: true },
      text('token'),
      text('host'),
      { name: 'pid', type: 'integer' },
      text('command'),
      { name: 'since', type: 'isoTime' },
      { name: 'heartbeat', type: 'instant' },
      { name: 'backend_pid', type: 'integer', only: 'postgres' },
    ],
    key: ['name'],
    sharded: false,
    rowid: true,
  },
  {
    name: 'journal',
    columns: [
      { name: 'hash', type: 'hash' },
      { name: 'endpoint', type: 'text', only: 'postgres' },
      { name: 'order_id', type: 'text', optional: true, only: 'postgres' },
      { name: 'outcome', type: 'outcome' },
      { name: 'at', type: 'instant' },
    ],
    key: ['hash'],
    sharded: true,
  },
  {
    name: 'orders',
    columns: [
      text('order_id'),
      { name: 'hash', type: 'hash' },
      { name: 'evaluate', type: 'flag' },
      text('decision', true),
      text('last_status', true),
    ],
    key: ['order_id'],
    sharded: true,
  },
  {
    name: 'order_payments',
    columns: [
      text('order_id'),
      text('payment_id'),
      text('acquirer_id', true),
      text('updated_acquirer_id', true),
      // A card payment's last four digits, value in cents and its order's UTC creation date (CARD_COLUMNS).
      text('last_four', true),
      text('value_cents', true),
      text('sale_date', true),
    ],
    key: ['order_id', 'payment_id'],
    sharded: true,
  },
  {
    name: 'order_deliveries',
    columns: [text('order_id'), text('delivery_id')],
    key: ['order_id', 'delivery_id'],
    sharded: true,
    indexes: [{ name: 'order_deliveries_by_id', columns: ['delivery_id'] }],
  },
  {
    name: 'fraud_marks',
    columns: [text('order_id'), text('signal_type')],
    key: ['order_id', 'signal_type'],
    sharded: true,
  },
  {
    name: 'decisions',
    columns: [text('order_id'), text('decision'), text('source'), { name: 'at', type: 'instant' }],
    key: ['order_id'],
    sharded: true,
  },
];
