import type { RememberedTable, StateWrites } from '../resources/resource.js';
import type { StateWriterThread } from './stateWriterThread.js';
import { rememberRecords, type Remembered } from '../state/remembered.js';
import { upsertSql } from '../state/sqlite/declaredTables.js';
import { writeSql, writesThrough } from '../state/sqlite/stateStatements.js';

const upserts = new WeakMap<RememberedTable, string>();
const upsertOf = (table: RememberedTable): string => {
  let sql = upserts.get(table);
  if (sql === undefined) upserts.set(table, (sql = upsertSql(table)));
  return sql;
};

/**
 * Lists what `remember` would write for `records` on the writer thread, with the keys a later
 * read looks up: an order's id for every write of it, a delivery id, a journal hash.
 */
export function listLaterWrites(
  writer: StateWriterThread,
  records: readonly Remembered[],
  at: number,
  journalOutcome: (outcome: Remembered['outcome']) => number,
): void {
  const core = writesThrough((name, params) => writer.list(writeSql(name), params));
  const writes: StateWrites = {
    // The hash goes as text: the writer thread makes its bytes (hashBlob), not the main thread.
    createOrder: (o) => (
      writer.note('order', o.orderId),
      writer.list(writeSql('addOrder'), [o.orderId, o.hash, o.evaluate ? 1 : 0, o.status], 1)
    ),
    setDecision: (orderId, decision) => (writer.note('order', orderId), core.setDecision(orderId, decision)),
    addPayment: (orderId, paymentId, acquirerId, card) => (
      writer.note('order', orderId),
      core.addPayment(orderId, paymentId, acquirerId, card)
    ),
    setUpdatedAcquirer: (orderId, paymentId, acquirerId) => (
      writer.note('order', orderId),
      core.setUpdatedAcquirer(orderId, paymentId, acquirerId)
    ),
    setLastStatus: (orderId, status) => (writer.note('order', orderId), core.setLastStatus(orderId, status)),
    addFraudMark: (orderId, signalType) => (
      writer.note('order', orderId),
      core.addFraudMark(orderId, signalType)
    ),
    addDelivery: (orderId, deliveryId) => (
      writer.note('order', orderId),
      writer.note('claim', deliveryId),
      core.addDelivery(orderId, deliveryId)
    ),
    addRow: (table, orderId, values) => (
      writer.note('order', orderId),
      writer.list(upsertOf(table), [orderId, ...table.columns.map((_, i) => values[i] ?? null)])
    ),
  };
  rememberRecords(records, writes, (hash, _endpoint, _orderId, outcome) => {
    writer.note('hash', hash);
    writer.list(writeSql('journal'), [hash, journalOutcome(outcome), at], 0);
  });
}
