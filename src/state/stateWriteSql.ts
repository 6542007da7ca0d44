/**
 * The state's writes, one statement each: the store's own connection and the background writer
 * (stateWriterWorker.js) prepare the same SQL. `hashAt`: the parameter holding a content hash,
 * stored as its bytes (compactRows.ts hashBlob).
 */
export const writeSql = {
  addOrder: { sql: 'INSERT OR IGNORE INTO orders (order_id, hash, evaluate, last_status) VALUES (?, ?, ?, ?)', arity: 4, hashAt: 1 },
  setDecision: { sql: 'UPDATE orders SET decision = ? WHERE order_id = ?', arity: 2 },
  addPayment: { sql: 'INSERT OR IGNORE INTO order_payments (order_id, payment_id, acquirer_id) VALUES (?, ?, ?)', arity: 3 },
  setAcquirer: { sql: 'UPDATE order_payments SET updated_acquirer_id = ? WHERE order_id = ? AND payment_id = ?', arity: 3 },
  addDelivery: { sql: 'INSERT OR IGNORE INTO order_deliveries (order_id, delivery_id) VALUES (?, ?)', arity: 2 },
  setStatus: { sql: 'UPDATE orders SET last_status = ? WHERE order_id = ?', arity: 2 },
  addMark: { sql: 'INSERT OR IGNORE INTO fraud_marks (order_id, signal_type) VALUES (?, ?)', arity: 2 },
  journal: { sql: 'INSERT OR REPLACE INTO journal (hash, outcome, at) VALUES (?, ?, ?)', arity: 3, hashAt: 0 },
} as const satisfies Record<string, { sql: string; arity: number; hashAt?: number }>;

export type WriteName = keyof typeof writeSql;
