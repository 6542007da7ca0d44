/** The state's schema, one step per version; a store opened by an older collect is brought up to date. */
export const migrations: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE orders (
     order_id TEXT PRIMARY KEY, hash TEXT NOT NULL, evaluate INTEGER NOT NULL,
     decision TEXT, last_status TEXT
   );
   CREATE TABLE order_payments (
     order_id TEXT NOT NULL, payment_id TEXT NOT NULL, acquirer_id TEXT,
     PRIMARY KEY (order_id, payment_id)
   );
   CREATE TABLE order_deliveries (order_id TEXT NOT NULL, delivery_id TEXT NOT NULL, PRIMARY KEY (order_id, delivery_id));
   CREATE INDEX order_deliveries_by_id ON order_deliveries (delivery_id);
   CREATE TABLE fraud_marks (order_id TEXT NOT NULL, signal_type TEXT NOT NULL, PRIMARY KEY (order_id, signal_type));
   CREATE TABLE journal (
     hash TEXT PRIMARY KEY, endpoint TEXT NOT NULL, order_id TEXT, outcome TEXT NOT NULL, at TEXT NOT NULL
   );`,
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
];
