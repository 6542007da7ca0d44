import type Database from '../../platform/sqlite.js';
import type { StateWrites } from '../../resources/resource.js';
import { hashBlob } from '../compactRows.js';

export type Counts = { orders: number; journal: number; deliveries: number; decisions: number };

/** Which tables hold anything: lookups in an empty one are skipped. */
export function countsOf(db: Database.Database): Counts {
  const count = (table: string) =>
    (db.prepare(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`).get() as { any: number }).any;
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
  addPayment: 'INSERT OR IGNORE INTO order_payments (order_id, payment_id, acquirer_id) VALUES (?, ?, ?)',
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
export type StoreStatements = Record<keyof typeof SQL, Database.Statement>;

/** Prepares the store's statements on its connection. */
export function prepare(db: Database.Database): StoreStatements {
  return Object.fromEntries(
    Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)]),
  ) as StoreStatements;
}

/** The state's writes, each run at once by its prepared statement. */
export function writesOn(s: StoreStatements): Omit<StateWrites, 'addRow'> {
  return {
    createOrder: (o) => s.addOrder.run(o.orderId, hashBlob(o.hash), o.evaluate ? 1 : 0, o.status),
    setDecision: (orderId, decision) => s.setDecision.run(decision, orderId),
    addPayment: (orderId, paymentId, acquirerId) => s.addPayment.run(orderId, paymentId, acquirerId),
    setUpdatedAcquirer: (orderId, paymentId, acquirerId) => s.setAcquirer.run(acquirerId, orderId, paymentId),
    setLastStatus: (orderId, status) => s.setStatus.run(status, orderId),
    addFraudMark: (orderId, signalType) => s.addMark.run(orderId, signalType),
    addDelivery: (orderId, deliveryId) => s.addDelivery.run(orderId, deliveryId),
  };
}
