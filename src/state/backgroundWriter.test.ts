import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import type { Worker } from 'node:worker_threads';
import { BackgroundWriter } from './backgroundWriter.js';
import { StateError } from './stateErrors.js';
import { StateStore } from './stateStore.js';
import { type Remembered } from './remembered.js';

const now = new Date('2025-01-01T00:00:00Z');
const folder = () => mkdtempSync(join(tmpdir(), 'collect-writer-'));
const hex = (n: number) => n.toString(16).padStart(40, '0');

/** A run's validated records in flow order (each order's creation before its updates), orders in no key order. */
function flowRecords(orders: number): Remembered[] {
  const records: Remembered[] = [];
  for (let i = 0; i < orders; i++) {
    const id = `ORD-${(i * 7919) % orders}`;
    const facts = (f: object) => ({ orderId: id, key: id, ...f }) as Facts;
    records.push({ resource: resources.order, hash: hex(i), outcome: 'validated', facts: facts({ kind: 'order', evaluate: i % 2 === 0, status: 'pending', payments: [{ id: `P${i}`, acquirerId: 'X' }, { id: `Q${i}` }], claims: [`D${i}`] }) });
    records.push({ resource: resources.status, hash: hex(orders + i), outcome: 'validated', facts: facts({ kind: 'status', status: 'approved' }) });
    if (i % 3 === 0) records.push({ resource: resources.status, hash: hex(2 * orders + i), outcome: 'validated', facts: facts({ kind: 'status', status: 'shipped' }) });
    if (i % 5 === 0) records.push({ resource: resources.payment, hash: hex(3 * orders + i), outcome: 'validated', facts: { kind: 'payment', orderId: id, key: `Q${i}`, paymentId: `Q${i}`, acquirerId: 'Y' } as Facts });
    if (i % 7 === 0) records.push({ resource: resources.fraud, hash: hex(4 * orders + i), outcome: 'validated', facts: facts({ kind: 'fraud', signalType: 'chargeback' }) });
  }
  // The same order created again with other content: the first creation stays.
  records.push({ resource: resources.order, hash: 'other', outcome: 'validated', facts: { kind: 'order', orderId: 'ORD-0', key: 'ORD-0', evaluate: true, payments: [], claims: [] } as Facts });
  // ... and a status after it, in its batch (folded into that creation's write): the status is the order's.
  records.push({ resource: resources.status, hash: hex(5 * orders), outcome: 'validated', facts: { kind: 'status', orderId: 'ORD-0', key: 'ORD-0', status: 'refunded' } as Facts });
  return records;
}

/** Every row of the state's tables, in key order. */
function tables(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  const all = Object.fromEntries(['orders', 'order_payments', 'order_deliveries', 'fraud_marks', 'journal'].map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()]));
  db.close();
  return all;
}

describe('StateStore.rememberLater (the background writer)', () => {
  it('leaves the state that remember leaves, over batches of many rows per statement', async () => {
    const records = flowRecords(450);
    const [now1, later] = [folder(), folder()];
    const direct = StateStore.open(now1);
    direct.remember(records, now);
    direct.close();
    const background = StateStore.open(later);
    for (let i = 0; i < records.length; i += 400) background.rememberLater(records.slice(i, i + 400), now);
    await background.durable();
    background.close();
    const expected = tables(join(now1, 'dry-run.sqlite'));
    expect(expected.orders).toHaveLength(450);
    expect(tables(join(later, 'dry-run.sqlite'))).toEqual(expected);
  });

  it('leaves what remember leaves when a batch creates an order twice, or gives it statuses before and after its creation', async () => {
    const order = (id: string, hash: string, evaluate: boolean): Remembered => ({ resource: resources.order, hash, outcome: 'validated', facts: { kind: 'order', orderId: id, key: id, evaluate, payments: [], claims: [] } as Facts });
    const status = (id: string, value: string, n: number): Remembered => ({ resource: resources.status, hash: hex(100 + n), outcome: 'validated', facts: { kind: 'status', orderId: id, key: id, status: value } as Facts });
    const earlier = [order('A', hex(1), false)];
    const batch = [status('A', 'shipped', 1), order('A', hex(1), false), status('A', 'delivered', 2), order('B', hex(2), true), status('B', 'approved', 3), order('B', hex(3), false)];
    const [direct, background] = [folder(), folder()];
    for (const dir of [direct, background]) {
      const store = StateStore.open(dir);
      store.remember(earlier, now);
      if (dir === direct) store.remember(batch, now);
      else store.rememberLater(batch, now);
      await store.durable();
      store.close();
    }
    const expected = tables(join(direct, 'dry-run.sqlite'));
    expect(expected.orders).toMatchObject([{ order_id: 'A', last_status: 'delivered' }, { order_id: 'B', evaluate: 1, last_status: 'approved' }]);
    expect(tables(join(background, 'dry-run.sqlite'))).toEqual(expected);
  });

  it('lets a read of the store see what was sent to the writer before it: orders, claimed delivery ids, the journal', () => {
    const dir = folder();
    const first = StateStore.open(dir);
    first.remember(flowRecords(1), now);
    first.close();
    const reopened = StateStore.open(dir);
    reopened.rememberLater([{ resource: resources.order, hash: hex(9), outcome: 'validated', facts: { kind: 'order', orderId: 'B', key: 'B', evaluate: false, payments: [{ id: 'PB' }], claims: ['DB'] } as Facts }], now);
    expect(reopened.priorOrder('B')).toMatchObject({ created: true, hash: hex(9), payments: { PB: null }, deliveryIds: ['DB'] });
    reopened.rememberLater([{ resource: resources.order, hash: hex(10), outcome: 'validated', facts: { kind: 'order', orderId: 'C', key: 'C', evaluate: false, payments: [], claims: ['DC'] } as Facts }], now);
    expect(reopened.claimants('DC')).toEqual(['C']);
    reopened.rememberLater([{ resource: resources.status, hash: hex(11), outcome: 'validated', facts: { kind: 'status', orderId: 'C', key: 'C', status: 'approved' } as Facts }], now);
    expect(reopened.journalOutcome(hex(11))).toBe('validated');
    reopened.close();
  });

  it('stops with a StateError naming the file, instead of waiting for ever, when the writer thread dies without a word (out of memory)', async () => {
    const dir = folder();
    StateStore.open(dir).close();
    const writer = BackgroundWriter.start(join(dir, 'dry-run.sqlite'), undefined, 300);
    // What an out-of-memory end of the thread leaves: no commit, no failure told, no connection closed.
    await (writer as unknown as { worker: Worker }).worker.terminate();
    writer.writes.createOrder({ orderId: 'A', hash: hex(1), evaluate: false, status: null });
    writer.send();
    expect(() => writer.drain()).toThrow(StateError);
    expect(() => writer.drain()).toThrow(/dry-run\.sqlite.*no sign of life/);
    expect(() => writer.close()).toThrow(StateError);
  });

  it('reports a failure of the writer as a StateError naming the file, from durable() and close()', async () => {
    const dir = folder();
    const store = StateStore.open(dir);
    const other = new Database(join(dir, 'dry-run.sqlite'));
    other.exec('DROP TABLE order_deliveries');
    other.close();
    store.rememberLater(flowRecords(2), now);
    await expect(store.durable()).rejects.toThrow(StateError);
    await expect(store.durable()).rejects.toThrow(/dry-run\.sqlite/);
    expect(() => store.close()).toThrow(StateError);
  });
});
