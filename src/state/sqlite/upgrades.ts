/** A hash column's text as its bytes when it is lowercase hex (compactRows.ts hashBlob), else as it is. */
const asBlob = (column: string) =>
  `CASE WHEN length(${column}) > 0 AND length(${column}) % 2 = 0 AND ${column} NOT GLOB ` +
  `'*[^0-9a-f]*' THEN unhex(${column}) ELSE ${column} END`;
/** An ISO time column as whole Unix seconds (0 when it is not a time). */
const asSeconds = (column: string) => `coalesce(CAST(unixepoch(${column}) AS INTEGER), 0)`;

/** The schema a state of this collect has (PRAGMA user_version): a new state is made at it from coreTables.ts. */
export const SCHEMA_VERSION = 5;

/**
 * The upgrades of state files written before 0.1.0, which began at schema 1: `upgrades[i]` takes a
 * file from version i + 1 to i + 2. Their rows move, so each step stays as it was written.
 */
export const upgrades: readonly string[] = [
  // 2: an acquirer id sent by a payment update is kept apart from the one sent at creation,
  // which the payment rules compare with.
  `ALTER TABLE order_payments ADD COLUMN updated_acquirer_id TEXT;`,
  // 3: decisions the service made on orders created outside collect (`collect decisions`), so
  // §1.5 holds for them; and the locks of the runs that write this state (stateLock.ts).
  `CREATE TABLE decisions (order_id TEXT PRIMARY KEY, decision TEXT NOT NULL, source TEXT NOT NULL, at TEXT NOT NULL);
   CREATE TABLE run_locks (
     name TEXT PRIMARY KEY, shard_index INTEGER, shard_count INTEGER, token TEXT NOT NULL,
     host TEXT NOT NULL, pid INTEGER NOT NULL, command TEXT NOT NULL, since TEXT NOT NULL, heartbeat INTEGER NOT NULL
   );`,
  // 4: compact rows (issue 16): content hashes as their 20 bytes (lowercase hex only: any other
  // text stays as it is, as compactRows.ts reads it), journal outcomes as small integers
  // (compactRows.ts), times as Unix seconds, the journal without endpoint and order id (the hash
  // already covers the endpoint), every table keyed by its primary key alone (WITHOUT ROWID).
  `CREATE TABLE journal_v4 (hash BLOB PRIMARY KEY, outcome INTEGER NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;
   INSERT OR REPLACE INTO journal_v4 SELECT ${asBlob('hash')},
     CASE outcome WHEN 'validated' THEN 0 WHEN 'accepted' THEN 1 WHEN 'rejected' THEN 2 ELSE 3 \
END, ${asSeconds('at')} FROM journal;
   DROP TABLE journal;
   ALTER TABLE journal_v4 RENAME TO journal;
   CREATE TABLE orders_v4 (
     order_id TEXT PRIMARY KEY, hash BLOB NOT NULL, evaluate INTEGER NOT NULL, decision TEXT, last_status TEXT
   ) WITHOUT ROWID;
   INSERT INTO orders_v4 SELECT order_id, ${asBlob('hash')}, evaluate, decision, last_status FROM orders;
   DROP TABLE orders;
   ALTER TABLE orders_v4 RENAME TO orders;
   CREATE TABLE order_payments_v4 (
     order_id TEXT NOT NULL, payment_id TEXT NOT NULL, acquirer_id TEXT, updated_acquirer_id TEXT,
     PRIMARY KEY (order_id, payment_id)
   ) WITHOUT ROWID;
   INSERT INTO order_payments_v4 SELECT order_id, payment_id, acquirer_id, updated_acquirer_id FROM order_payments;
   DROP TABLE order_payments;
   ALTER TABLE order_payments_v4 RENAME TO order_payments;
   CREATE TABLE order_deliveries_v4 (order_id TEXT NOT NULL, delivery_id TEXT NOT NULL, PRIMARY KEY \
(order_id, delivery_id)) WITHOUT ROWID;
   INSERT INTO order_deliveries_v4 SELECT order_id, delivery_id FROM order_deliveries;
   DROP TABLE order_deliveries;
   ALTER TABLE order_deliveries_v4 RENAME TO order_deliveries;
   CREATE INDEX order_deliveries_by_id ON order_deliveries (delivery_id);
   CREATE TABLE fraud_marks_v4 (order_id TEXT NOT NULL, signal_type TEXT NOT NULL, PRIMARY KEY (order_id, \
signal_type)) WITHOUT ROWID;
   INSERT INTO fraud_marks_v4 SELECT order_id, signal_type FROM fraud_marks;
   DROP TABLE fraud_marks;
   ALTER TABLE fraud_marks_v4 RENAME TO fraud_marks;
   CREATE TABLE decisions_v4 (order_id TEXT PRIMARY KEY, decision TEXT NOT NULL, source TEXT NOT NULL, at \
INTEGER NOT NULL) WITHOUT ROWID;
   INSERT INTO decisions_v4 SELECT order_id, decision, source, ${asSeconds('at')} FROM decisions;
   DROP TABLE decisions;
   ALTER TABLE decisions_v4 RENAME TO decisions;`,
  // 5: a card payment's card key (last four, cents, UTC sale date) on its payment row, not in a table of its own
  // (order_cards, which a state of schema 4 may hold): one row per payment to write (looked up by
  // cardPayments.ts).
  `ALTER TABLE order_payments ADD COLUMN last_four TEXT;
   ALTER TABLE order_payments ADD COLUMN value_cents TEXT;
   ALTER TABLE order_payments ADD COLUMN sale_date TEXT;
   CREATE TABLE IF NOT EXISTS order_cards (order_id TEXT NOT NULL, payment_id TEXT NOT NULL, last_four TEXT,
     value_cents TEXT, sale_date TEXT, PRIMARY KEY (order_id, payment_id)) WITHOUT ROWID;
   UPDATE order_payments SET last_four = c.last_four, value_cents = c.value_cents, sale_date = c.sale_date
     FROM order_cards AS c WHERE c.order_id = order_payments.order_id AND c.payment_id = order_payments.payment_id;
   DROP TABLE order_cards;`,
];
