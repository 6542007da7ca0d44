import type pg from 'pg';
import type { RememberedTable, StateWrites } from '../../resources/resource.js';
import { keyColumns } from '../declared.js';
import { pgTable } from './pgSchema.js';
import { shardKey } from '../shardKey.js';
import type { JournalWrite, Remembered } from '../remembered.js';

/**
 * One group of state writes for PostgreSQL, gathered per kind and written in one transaction with
 * one statement per kind (arrays unnested): a group of answers costs one round trip, not one per record.
 */
export class PgWriteGroup {
  private readonly orders = new Map<string, [string, number, string, boolean, string | null]>();
  private readonly payments: [string, number, string, string | null, ...(string | null)[]][] = [];
  private readonly deliveries: [string, number, string][] = [];
  private readonly marks: [string, number, string][] = [];
  private readonly decisionsAnswered = new Map<string, string>();
  private readonly statuses = new Map<string, string>();
  private readonly acquirers = new Map<string, [string, string, string]>();
  private readonly journal = new Map<string, [string, number, string, string, string, string]>();
  private readonly loaded = new Map<string, [string, number, string, string, string]>();
  /** Rows of declared tables (RememberedTable), by table, then by key: a later row of a key replaces an earlier one. */
  private readonly declared = new Map<RememberedTable, Map<string, unknown[]>>();

  constructor(
    private readonly namespace: string,
    private readonly at: string,
  ) {}

  readonly writes: StateWrites = {
    createOrder: (o) =>
      void (
        this.orders.has(o.orderId) ||
        this.orders.set(o.orderId, [o.orderId, shardKey(o.orderId), o.hash, o.evaluate, o.status])
      ),
    setDecision: (orderId, decision) => void this.decisionsAnswered.set(orderId, decision),
    addPayment: (orderId, paymentId, acquirerId, card) =>
      void this.payments.push([
        orderId,
        shardKey(orderId),
        paymentId,
        acquirerId,
        ...(card ?? [null, null, null]),
      ]),
    setUpdatedAcquirer: (orderId, paymentId, acquirerId) =>
      void this.acquirers.set(`${orderId}\u0000${paymentId}`, [orderId, paymentId, acquirerId]),
    setLastStatus: (orderId, status) => void this.statuses.set(orderId, status),
    addFraudMark: (orderId, signalType) => void this.marks.push([orderId, shardKey(orderId), signalType]),
    addDelivery: (orderId, deliveryId) => void this.deliveries.push([orderId, shardKey(orderId), deliveryId]),
    addRow: (table, orderId, values) => {
      const row = [orderId, shardKey(orderId), ...table.columns.map((_, i) => values[i] ?? null)];
      this.rowsOf(table).set(JSON.stringify([orderId, ...row.slice(2, 2 + table.key)]), row);
    },
  };

  private rowsOf(table: RememberedTable): Map<string, unknown[]> {
    let rows = this.declared.get(table);
    if (!rows) this.declared.set(table, (rows = new Map()));
    return rows;
  }

  readonly journalWrite: JournalWrite = (hash, endpoint, orderId, outcome: Remembered['outcome']) =>
    void this.journal.set(hash, [hash, shardKey(orderId), endpoint, orderId, outcome, this.at]);

  loadDecision(orderId: string, decision: string, source: string): void {
    this.loaded.set(orderId, [orderId, shardKey(orderId), decision, source, this.at]);
  }

  /** The group's statements, in the order they apply; values go in as literals escaped by the client. */
  statements(client: pg.ClientBase): string[] {
    const literal = (value: unknown): string => {
      if (value === null || value === undefined) return 'NULL';
      if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
      if (typeof value === 'number') return String(value);
      return client.escapeLiteral(String(value));
    };
    const array = (values: readonly unknown[], type: string) =>
      `ARRAY[${values.map(literal).join(',')}]::${type}[]`;
    const ns = literal(this.namespace);
    const steps: string[] = [];
    const add = (rows: readonly unknown[][], types: readonly string[], sql: (unnest: string) => string) => {
      if (rows.length > 0)
        steps.push(
          sql(
            `unnest(${types
              .map((type, i) =>
                array(
                  rows.map((row) => row[i]),
                  type,
                ),
              )
              .join(', ')})`,
          ),
        );
    };
    add(
      [...this.orders.values()],
      ['text', 'bigint', 'text', 'boolean', 'text'],
      (u) => `INSERT INTO collect_orders (namespace, order_id, shard_key, hash, evaluate, last_status)
      SELECT ${ns}, * FROM ${u} ON CONFLICT DO NOTHING`,
    );
    add(
      this.payments,
      ['text', 'bigint', 'text', 'text', 'text', 'text', 'text'],
      (u) => `INSERT INTO collect_order_payments (namespace, order_id, shard_key, payment_id, acquirer_id,
      last_four, value_cents, sale_date)
      SELECT ${ns}, * FROM ${u} ON CONFLICT DO NOTHING`,
    );
    add(
      this.deliveries,
      ['text', 'bigint', 'text'],
      (u) => `INSERT INTO collect_order_deliveries (namespace, order_id, shard_key, delivery_id)
      SELECT ${ns}, * FROM ${u} ON CONFLICT DO NOTHING`,
    );
    add(
      this.marks,
      ['text', 'bigint', 'text'],
      (u) => `INSERT INTO collect_fraud_marks (namespace, order_id, shard_key, signal_type)
      SELECT ${ns}, * FROM ${u} ON CONFLICT DO NOTHING`,
    );
    add(
      [...this.decisionsAnswered],
      ['text', 'text'],
      (u) => `UPDATE collect_orders o SET decision = u.decision
      FROM ${u} AS u(order_id, decision) WHERE o.namespace = ${ns} AND o.order_id = u.order_id`,
    );
    add(
      [...this.statuses],
      ['text', 'text'],
      (u) => `UPDATE collect_orders o SET last_status = u.status
      FROM ${u} AS u(order_id, status) WHERE o.namespace = ${ns} AND o.order_id = u.order_id`,
    );
    add(
      [...this.acquirers.values()],
      ['text', 'text', 'text'],
      (u) => `UPDATE collect_order_payments p SET updated_acquirer_id = u.acquirer_id
      FROM ${u} AS u(order_id, payment_id, acquirer_id)
      WHERE p.namespace = ${ns} AND p.order_id = u.order_id AND p.payment_id = u.payment_id`,
    );
    add(
      [...this.loaded.values()],
      ['text', 'bigint', 'text', 'text', 'timestamptz'],
      (u) => `INSERT INTO collect_decisions (namespace, order_id, shard_key, decision, source, at)
      SELECT ${ns}, u.* FROM ${u} AS u
      ON CONFLICT (namespace, order_id) DO UPDATE SET decision = excluded.decision, source = \
excluded.source, at = excluded.at`,
    );
    for (const [table, rows] of this.declared) {
      const rest = table.columns.slice(table.key);
      const set =
        rest.length === 0
          ? 'DO NOTHING'
          : `DO UPDATE SET ${rest.map((column) => `${column} = excluded.${column}`).join(', ')}`;
      add(
        [...rows.values()],
        ['text', 'bigint', ...table.columns.map(() => 'text')],
        (u) => `INSERT INTO ${pgTable(table)}
        (namespace, order_id, shard_key, ${table.columns.join(', ')}) SELECT ${ns}, * FROM ${u}
        ON CONFLICT (namespace, ${keyColumns(table).join(', ')}) ${set}`,
      );
    }
    add(
      [...this.journal.values()],
      ['text', 'bigint', 'text', 'text', 'text', 'timestamptz'],
      (u) => `INSERT INTO collect_journal (namespace, hash, shard_key, endpoint, order_id, outcome, at)
      SELECT ${ns}, u.* FROM ${u} AS u
      ON CONFLICT (namespace, hash) DO UPDATE SET endpoint = excluded.endpoint, order_id = \
excluded.order_id, outcome = excluded.outcome, at = excluded.at`,
    );
    return steps;
  }
}

/**
 * Writes groups in one transaction, all durable or none, each group's writes applying after the
 * previous group's: one simple query (BEGIN; ...; COMMIT), one round trip.
 */
export async function writeGroups(client: pg.ClientBase, groups: readonly PgWriteGroup[]): Promise<void> {
  const steps = groups.flatMap((group) => group.statements(client));
  if (steps.length === 0) return;
  try {
    await client.query(`BEGIN; ${steps.join(';\n')}; COMMIT`);
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw cause;
  }
}
