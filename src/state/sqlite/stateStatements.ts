import type { Database, SQLInputValue, Statement } from '../../platform/sqlite.js';
import type { StateWrites } from '../../resources/resource.js';
import { hashBlob } from '../compactRows.js';

export type Counts = { orders: number; journal: number; deliveries: number; decisions: number };

const countStatements = new WeakMap<Database, Map<string, Statement>>();

/** Which tables hold anything: lookups in an empty one are skipped. */
export function countsOf(db: Database): Counts {
  // Prepared once per connection: the relay recounts after every event.
  let cached = countStatements.get(db);
  if (!cached) countStatements.set(db, (cached = new Map()));
  const statements = cached;
  const count = (table: string) => {
    let statement = statements.get(table);
    if (!statement)
      statements.set(table, (statement = db.prepare(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`)));
    return (statement.get() as { any: number }).any;
  };
  return {
    orders: count('orders'),
    journal: count('journal'),
    deliveries: count('order_deliveries'),
    decisions: count('decisions'),
  };
}

/** The state's writes and reads, one statement each. */
const SQL = {
  addOrder: 'INSERT OR IGNORE INTO orders (order_id, hash, evaluate, last_status) VALUES (?, ?, ?, ?)',
  setDecision: 'UPDATE orders SET decision = ? WHERE order_id = ?',
  addPayment: `INSERT OR IGNORE INTO order_payments (order_id, payment_id, acquirer_id, last_four, value_cents,
    sale_date) VALUES (?, ?, ?, ?, ?, ?)`,
  setAcquirer: 'UPDATE order_payments SET updated_acquirer_id = ? WHERE order_id = ? AND payment_id = ?',
  addDelivery: 'INSERT OR IGNORE INTO order_deliveries (order_id, delivery_id) VALUES (?, ?)',
  setStatus: 'UPDATE orders SET last_status = ? WHERE order_id = ?',
  addMark: 'INSERT OR IGNORE INTO fraud_marks (order_id, signal_type) VALUES (?, ?)',
  journal: 'INSERT OR REPLACE INTO journal (hash, outcome, at) VALUES (?, ?, ?)',
  loaded: 'SELECT decision FROM decisions WHERE order_id = ?',
  load: `INSERT INTO decisions (order_id, decision, source, at) VALUES (?, ?, ?, ?)
    ON CONFLICT (order_id) DO UPDATE SET decision = excluded.decision, source = excluded.source, at = excluded.at`,
  owners: 'SELECT order_id FROM order_deliveries WHERE delivery_id = ?',
} as const;

/** The store's prepared statements, by name. */
export type StoreStatements = Record<keyof typeof SQL, Statement>;

/** Prepares the store's statements on its connection. */
export function prepare(db: Database): StoreStatements {
  return Object.fromEntries(
    Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)]),
  ) as StoreStatements;
}

/** The statements a record's remembering runs (the rest are reads and the decisions' load). */
export type WriteName =
  'addOrder' | 'setDecision' | 'addPayment' | 'setAcquirer' | 'addDelivery' | 'setStatus' | 'addMark';

/** The SQL of a write, by name: a writer on another connection prepares the same text. */
export function writeSql(name: WriteName | 'journal'): string {
  return SQL[name];
}

/** Runs a write (its statement and parameters), at once or later elsewhere. */
export type RunWrite = (name: WriteName, params: unknown[]) => void;

/** The state's writes, each told to `run` by statement and parameters. */
export function writesThrough(run: RunWrite): Omit<StateWrites, 'addRow'> {
  return {
    createOrder: (o) => run('addOrder', [o.orderId, hashBlob(o.hash), o.evaluate ? 1 : 0, o.status]),
    setDecision: (orderId, decision) => run('setDecision', [decision, orderId]),
    addPayment: (orderId, paymentId, acquirerId, card) =>
      run('addPayment', [
        orderId,
        paymentId,
        acquirerId,
        card?.[0] ?? null,
        card?.[1] ?? null,
        card?.[2] ?? null,
      ]),
    setUpdatedAcquirer: (orderId, paymentId, acquirerId) =>
      run('setAcquirer', [acquirerId, orderId, paymentId]),
    setLastStatus: (orderId, status) => run('setStatus', [status, orderId]),
    addFraudMark: (orderId, signalType) => run('addMark', [orderId, signalType]),
    addDelivery: (orderId, deliveryId) => run('addDelivery', [orderId, deliveryId]),
  };
}

/** The state's writes, each run at once by its prepared statement. */
export function writesOn(s: StoreStatements): Omit<StateWrites, 'addRow'> {
  return writesThrough((name, params) => s[name].run(...(params as SQLInputValue[])));
}
