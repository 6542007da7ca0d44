import { hashBlob } from './compactRows.js';

/**
 * The state's writes, one statement each: the store's own connection and the background writer
 * (stateWriterWorker.js) prepare the same SQL. `hashAt`: the parameter holding a content hash,
 * stored as its bytes (compactRows.ts hashBlob). `keyAt`: the parameter of the row's key (the
 * background writer sorts a batch's rows by it). `insert`: a plain INSERT of one row, which the
 * background writer runs for many rows at once (VALUES (...), (...), ...), then `tail`.
 */
export const writeSql = {
  addOrder: { sql: 'INSERT OR IGNORE INTO orders (order_id, hash, evaluate, last_status) VALUES (?, ?, ?, ?)', arity: 4, keyAt: 0, hashAt: 1, insert: true },
  // An order created and given a later status in one batch: what addOrder then setStatus give, in one write.
  addOrderLastStatus: { sql: 'INSERT INTO orders (order_id, hash, evaluate, last_status) VALUES (?, ?, ?, ?)', tail: ' ON CONFLICT (order_id) DO UPDATE SET last_status = excluded.last_status', arity: 4, keyAt: 0, hashAt: 1, insert: true },
  setDecision: { sql: 'UPDATE orders SET decision = ? WHERE order_id = ?', arity: 2, keyAt: 1 },
  addPayment: { sql: 'INSERT OR IGNORE INTO order_payments (order_id, payment_id, acquirer_id) VALUES (?, ?, ?)', arity: 3, keyAt: 0, insert: true },
  setAcquirer: { sql: 'UPDATE order_payments SET updated_acquirer_id = ? WHERE order_id = ? AND payment_id = ?', arity: 3, keyAt: 1 },
  addDelivery: { sql: 'INSERT OR IGNORE INTO order_deliveries (order_id, delivery_id) VALUES (?, ?)', arity: 2, keyAt: 0, insert: true },
  setStatus: { sql: 'UPDATE orders SET last_status = ? WHERE order_id = ?', arity: 2, keyAt: 1 },
  addMark: { sql: 'INSERT OR IGNORE INTO fraud_marks (order_id, signal_type) VALUES (?, ?)', arity: 2, keyAt: 0, insert: true },
  journal: { sql: 'INSERT OR REPLACE INTO journal (hash, outcome, at) VALUES (?, ?, ?)', arity: 3, keyAt: 0, hashAt: 0, insert: true },
} as const satisfies Record<string, { sql: string; tail?: string; arity: number; keyAt: number; hashAt?: number; insert?: true }>;

export type WriteName = keyof typeof writeSql;

/** The writes in the order of their codes in a batch's flat list (backgroundWriter.ts). */
export const writeNames = Object.keys(writeSql) as WriteName[];

/**
 * Each write of a batch's flat list (a write's code, then its parameters, and so on), its content
 * hash as stored (hashBlob). `names`: what the codes named where the list was written.
 */
export function eachWrite(ops: readonly unknown[], names: readonly string[], write: (name: WriteName, parameters: unknown[]) => void): void {
  for (let i = 0; i < ops.length;) {
    const name = names[ops[i++] as number] as WriteName;
    if (!Object.hasOwn(writeSql, name)) throw new Error(`a write this collect does not know (${String(name)})`);
    const { arity } = writeSql[name];
    const hashAt = (writeSql[name] as { hashAt?: number }).hashAt;
    const parameters = ops.slice(i, i + arity);
    i += arity;
    if (hashAt !== undefined) parameters[hashAt] = hashBlob(parameters[hashAt] as string);
    write(name, parameters);
  }
}
