import type Database from 'better-sqlite3';
import type { StateWrites } from '../resources/resource.js';
import { hashBlob } from './compactRows.js';
import { writeNames, writeSql, type WriteName } from './stateWriteSql.js';

export type Counts = { orders: number; journal: number; deliveries: number; decisions: number };

/** Which tables hold anything: lookups in an empty one are skipped. */
export function countsOf(db: Database.Database): Counts {
  const count = (table: string) => (db.prepare(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`).get() as { any: number }).any;
  return { orders: count('orders'), journal: count('journal'), deliveries: count('order_deliveries'), decisions: count('decisions') };
}

/** The store's prepared statements: every write of writeSql by its name, and its few reads and loads. */
export type StoreStatements = Record<WriteName | 'loaded' | 'load' | 'owners', Database.Statement>;

/** Prepares the store's statements on its connection. */
export function prepare(db: Database.Database): StoreStatements {
  // Every write of writeSql, by its name: the store's own, and the replay of answer files (eachWrite).
  const writes = Object.fromEntries(writeNames.map((name) => [name, db.prepare(writeSql[name].sql + ((writeSql[name] as { tail?: string }).tail ?? ''))])) as Record<WriteName, Database.Statement>;
  return {
    ...writes,
    loaded: db.prepare('SELECT decision FROM decisions WHERE order_id = ?'),
    load: db.prepare('INSERT INTO decisions (order_id, decision, source, at) VALUES (?, ?, ?, ?) ON CONFLICT (order_id) DO UPDATE SET decision = excluded.decision, source = excluded.source, at = excluded.at'),
    owners: db.prepare('SELECT order_id FROM order_deliveries WHERE delivery_id = ?'),
  };
}

/** The state's writes, each run at once by its prepared statement. */
export function writesOn(s: StoreStatements): StateWrites {
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
