import type pg from 'pg';
import type { StateWrites } from '../../resources/resource.js';
import { shardKey } from '../shardKey.js';
import type { JournalWrite, Remembered } from '../stateStore.js';

/**
 * One group of state writes for PostgreSQL, gathered per kind and written in one transaction with
 * one statement per kind (arrays unnested): a group of answers costs a few round trips, not one per record.
 */
export class PgWriteGroup {
  private readonly orders = new Map<string, [string, number, string, boolean, string | null]>();
  private readonly payments: [string, number, string, string | null][] = [];
  private readonly deliveries: [string, number, string][] = [];
  private readonly marks: [string, number, string][] = [];
  private readonly decisionsAnswered = new Map<string, string>();
  private readonly statuses = new Map<string, string>();
  private readonly acquirers = new Map<string, [string, string, string]>();
  private readonly journal = new Map<string, [string, number, string, string, string]>();
  private readonly loaded = new Map<string, [string, number, string, string]>();

  constructor(private readonly namespace: string, private readonly at: string) {}

  readonly writes: StateWrites = {
    createOrder: (o) => void (this.orders.has(o.orderId) || this.orders.set(o.orderId, [o.orderId, shardKey(o.orderId), o.hash, o.evaluate, o.status])),
    setDecision: (orderId, decision) => void this.decisionsAnswered.set(orderId, decision),
    addPayment: (orderId, paymentId, acquirerId) => void this.payments.push([orderId, shardKey(orderId), paymentId, acquirerId]),
    setUpdatedAcquirer: (orderId, paymentId, acquirerId) => void this.acquirers.set(`${orderId}\u0000${paymentId}`, [orderId, paymentId, acquirerId]),
    setLastStatus: (orderId, status) => void this.statuses.set(orderId, status),
    addFraudMark: (orderId, signalType) => void this.marks.push([orderId, shardKey(orderId), signalType]),
    addDelivery: (orderId, deliveryId) => void this.deliveries.push([orderId, shardKey(orderId), deliveryId]),
  };

  readonly journalWrite: JournalWrite = (hash, endpoint, orderId, outcome: Remembered['outcome']) =>
    void this.journal.set(hash, [hash, shardKey(orderId), endpoint, orderId, outcome]);

  loadDecision(orderId: string, decision: string, source: string): void {
    this.loaded.set(orderId, [orderId, shardKey(orderId), decision, source]);
  }

  /** Writes the group in one transaction: all of it is durable, or none. */
  async write(client: pg.ClientBase): Promise<void> {
    const ns = this.namespace;
    const at = this.at;
    const columns = <T extends unknown[]>(rows: readonly T[], width: number) => Array.from({ length: width }, (_, i) => rows.map((row) => row[i]));
    const steps: [string, unknown[]][] = [];
    const add = (rows: readonly unknown[][], width: number, sql: string, extra: unknown[] = []) => {
      if (rows.length > 0) steps.push([sql, [ns, ...columns(rows, width), ...extra]]);
    };
    add([...this.orders.values()], 5, `INSERT INTO collect_orders (namespace, order_id, shard_key, hash, evaluate, last_status)
      SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::boolean[], $6::text[]) ON CONFLICT DO NOTHING`);
    add(this.payments, 4, `INSERT INTO collect_order_payments (namespace, order_id, shard_key, payment_id, acquirer_id)
      SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING`);
    add(this.deliveries, 3, `INSERT INTO collect_order_deliveries (namespace, order_id, shard_key, delivery_id)
      SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[]) ON CONFLICT DO NOTHING`);
    add(this.marks, 3, `INSERT INTO collect_fraud_marks (namespace, order_id, shard_key, signal_type)
      SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[]) ON CONFLICT DO NOTHING`);
    add([...this.decisionsAnswered], 2, `UPDATE collect_orders o SET decision = u.decision
      FROM unnest($2::text[], $3::text[]) AS u(order_id, decision) WHERE o.namespace = $1 AND o.order_id = u.order_id`);
    add([...this.statuses], 2, `UPDATE collect_orders o SET last_status = u.status
      FROM unnest($2::text[], $3::text[]) AS u(order_id, status) WHERE o.namespace = $1 AND o.order_id = u.order_id`);
    add([...this.acquirers.values()], 3, `UPDATE collect_order_payments p SET updated_acquirer_id = u.acquirer_id
      FROM unnest($2::text[], $3::text[], $4::text[]) AS u(order_id, payment_id, acquirer_id)
      WHERE p.namespace = $1 AND p.order_id = u.order_id AND p.payment_id = u.payment_id`);
    add([...this.loaded.values()], 4, `INSERT INTO collect_decisions (namespace, order_id, shard_key, decision, source, at)
      SELECT $1, u.*, $6 FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) AS u
      ON CONFLICT (namespace, order_id) DO UPDATE SET decision = excluded.decision, source = excluded.source, at = excluded.at`, [at]);
    add([...this.journal.values()], 5, `INSERT INTO collect_journal (namespace, hash, shard_key, endpoint, order_id, outcome, at)
      SELECT $1, u.*, $7 FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[]) AS u
      ON CONFLICT (namespace, hash) DO UPDATE SET endpoint = excluded.endpoint, order_id = excluded.order_id, outcome = excluded.outcome, at = excluded.at`, [at]);
    if (steps.length === 0) return;
    await client.query('BEGIN');
    try {
      for (const [sql, params] of steps) await client.query(sql, params);
      await client.query('COMMIT');
    } catch (cause) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw cause;
    }
  }
}
