import type pg from 'pg';
import type { RememberedTable, StateWrites } from '../../resources/resource.js';
import { keyColumns } from '../declared.js';
import { pgTable } from './pgSchema.js';
import { shardKey } from '../shardKey.js';
import { GROUP_KINDS, groupStatement, sentKinds, type GroupKind } from './pgGroupStatement.js';
import type { JournalWrite, Remembered } from '../remembered.js';

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
  private readonly journal = new Map<string, [string, number, string, string, string, string]>();
  private readonly loaded = new Map<string, [string, number, string, string, string]>();
  /** Rows of declared tables (RememberedTable), by table, then by key: a later row of a key replaces an earlier one. */
  private readonly declared = new Map<RememberedTable, Map<string, unknown[]>>();

  constructor(private readonly namespace: string, private readonly at: string) {}

  /**
   * Takes in the writes of a later group, when writing both as one gives what writing them one
   * after the other would: not when an update here (status, decision, updated acquirer) names an
   * order or payment the later group creates (written alone first, it would have changed nothing).
   * Returns whether it did; the later group is then to be left alone.
   */
  absorb(later: PgWriteGroup): boolean {
    if (later.namespace !== this.namespace) return false;
    const createdLater = (orderId: string) => later.orders.has(orderId);
    if ([...this.statuses.keys(), ...this.decisionsAnswered.keys()].some(createdLater)) return false;
    if (this.acquirers.size > 0 && later.payments.some(([orderId, , paymentId]) => this.acquirers.has(`${orderId}\u0000${paymentId}`))) return false;
    for (const [orderId, row] of later.orders) if (!this.orders.has(orderId)) this.orders.set(orderId, row);
    this.payments.push(...later.payments);
    this.deliveries.push(...later.deliveries);
    this.marks.push(...later.marks);
    for (const [key, value] of later.decisionsAnswered) this.decisionsAnswered.set(key, value);
    for (const [key, value] of later.statuses) this.statuses.set(key, value);
    for (const [key, value] of later.acquirers) this.acquirers.set(key, value);
    for (const [key, value] of later.journal) this.journal.set(key, value);
    for (const [key, value] of later.loaded) this.loaded.set(key, value);
    for (const [table, rows] of later.declared) for (const [key, row] of rows) this.rowsOf(table).set(key, row);
    return true;
  }

  readonly writes: StateWrites = {
    createOrder: (o) => void (this.orders.has(o.orderId) || this.orders.set(o.orderId, [o.orderId, shardKey(o.orderId), o.hash, o.evaluate, o.status])),
    setDecision: (orderId, decision) => void this.decisionsAnswered.set(orderId, decision),
    addPayment: (orderId, paymentId, acquirerId) => void this.payments.push([orderId, shardKey(orderId), paymentId, acquirerId]),
    setUpdatedAcquirer: (orderId, paymentId, acquirerId) => void this.acquirers.set(`${orderId}\u0000${paymentId}`, [orderId, paymentId, acquirerId]),
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

  /** The group's rows of each kind of write (pgGroupStatement.ts GROUP_KINDS). */
  private rowsByKind(): Record<GroupKind, readonly (readonly unknown[])[]> {
    const updated = [...new Set([...this.decisionsAnswered.keys(), ...this.statuses.keys()])];
    return {
      updates: updated.map((id) => [id, this.decisionsAnswered.get(id) ?? null, this.statuses.get(id) ?? null]),
      orders: [...this.orders.values()],
      acquirers: [...this.acquirers.values()],
      payments: this.payments,
      deliveries: this.deliveries,
      marks: this.marks,
      loaded: [...this.loaded.values()],
      journal: [...this.journal.values()],
    };
  }

  /** The group as one statement (groupStatement) for the kinds it holds, and its parameters: each column an array. */
  statement(): { name: string; text: string; values: unknown[] } | undefined {
    // Declared tables have no place in the one statement: such a group goes as statements().
    if (this.declared.size > 0) return undefined;
    const rows = this.rowsByKind();
    const kinds = sentKinds(new Set((Object.keys(rows) as GroupKind[]).filter((kind) => rows[kind].length > 0)));
    const values: unknown[] = [this.namespace];
    for (const kind of kinds) {
      for (let column = 0; column < GROUP_KINDS[kind].length; column++) values.push(rows[kind].map((row) => row[column]));
    }
    return { ...groupStatement(kinds), values };
  }

  get empty(): boolean {
    return this.orders.size + this.payments.length + this.deliveries.length + this.marks.length + this.decisionsAnswered.size
      + this.statuses.size + this.acquirers.size + this.journal.size + this.loaded.size + this.declared.size === 0;
  }

  /** The group's statements, in the order they apply; values go in as literals escaped by the client. */
  statements(client: pg.ClientBase): string[] {
    const literal = (value: unknown): string => {
      if (value === null || value === undefined) return 'NULL';
      if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
      if (typeof value === 'number') return String(value);
      return client.escapeLiteral(String(value));
    };
    const array = (values: readonly unknown[], type: string) => `ARRAY[${values.map(literal).join(',')}]::${type}[]`;
    const ns = literal(this.namespace);
    const steps: string[] = [];
    const add = (rows: readonly unknown[][], types: readonly string[], sql: (unnest: string) => string) => {
      if (rows.length > 0) steps.push(sql(`unnest(${types.map((type, i) => array(rows.map((row) => row[i]), type)).join(', ')})`));
    };
    add([...this.orders.values()], ['text', 'bigint', 'text', 'boolean', 'text'], (u) => `INSERT INTO collect_orders (namespace, order_id, shard_key, hash, evaluate, last_status)
      SELECT ${ns}, * FROM ${u} ON CONFLICT DO NOTHING`);
    add(this.payments, ['text', 'bigint', 'text', 'text'], (u) => `INSERT INTO collect_order_payments (namespace, order_id, shard_key, payment_id, acquirer_id)
      SELECT ${ns}, * FROM ${u} ON CONFLICT DO NOTHING`);
    add(this.deliveries, ['text', 'bigint', 'text'], (u) => `INSERT INTO collect_order_deliveries (namespace, order_id, shard_key, delivery_id)
      SELECT ${ns}, * FROM ${u} ON CONFLICT DO NOTHING`);
    add(this.marks, ['text', 'bigint', 'text'], (u) => `INSERT INTO collect_fraud_marks (namespace, order_id, shard_key, signal_type)
      SELECT ${ns}, * FROM ${u} ON CONFLICT DO NOTHING`);
    add([...this.decisionsAnswered], ['text', 'text'], (u) => `UPDATE collect_orders o SET decision = u.decision
      FROM ${u} AS u(order_id, decision) WHERE o.namespace = ${ns} AND o.order_id = u.order_id`);
    add([...this.statuses], ['text', 'text'], (u) => `UPDATE collect_orders o SET last_status = u.status
      FROM ${u} AS u(order_id, status) WHERE o.namespace = ${ns} AND o.order_id = u.order_id`);
    add([...this.acquirers.values()], ['text', 'text', 'text'], (u) => `UPDATE collect_order_payments p SET updated_acquirer_id = u.acquirer_id
      FROM ${u} AS u(order_id, payment_id, acquirer_id)
      WHERE p.namespace = ${ns} AND p.order_id = u.order_id AND p.payment_id = u.payment_id`);
    add([...this.loaded.values()], ['text', 'bigint', 'text', 'text', 'timestamptz'], (u) => `INSERT INTO collect_decisions (namespace, order_id, shard_key, decision, source, at)
      SELECT ${ns}, u.* FROM ${u} AS u
      ON CONFLICT (namespace, order_id) DO UPDATE SET decision = excluded.decision, source = excluded.source, at = excluded.at`);
    for (const [table, rows] of this.declared) {
      const rest = table.columns.slice(table.key);
      const set = rest.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${rest.map((column) => `${column} = excluded.${column}`).join(', ')}`;
      add([...rows.values()], ['text', 'bigint', ...table.columns.map(() => 'text')], (u) => `INSERT INTO ${pgTable(table)}
        (namespace, order_id, shard_key, ${table.columns.join(', ')}) SELECT ${ns}, * FROM ${u}
        ON CONFLICT (namespace, ${keyColumns(table).join(', ')}) ${set}`);
    }
    add([...this.journal.values()], ['text', 'bigint', 'text', 'text', 'text', 'timestamptz'], (u) => `INSERT INTO collect_journal (namespace, hash, shard_key, endpoint, order_id, outcome, at)
      SELECT ${ns}, u.* FROM ${u} AS u
      ON CONFLICT (namespace, hash) DO UPDATE SET endpoint = excluded.endpoint, order_id = excluded.order_id, outcome = excluded.outcome, at = excluded.at`);
    return steps;
  }
}

/**
 * Writes groups in one transaction, all durable or none, each group's writes applying after the
 * previous group's as if written one by one: merged into one group when that changes nothing
 * (absorb), then one prepared statement; else one simple query (BEGIN; ...; COMMIT). One round trip.
 */
export async function writeGroups(client: pg.ClientBase, groups: readonly PgWriteGroup[]): Promise<void> {
  const merged: PgWriteGroup[] = [];
  for (const group of groups) if (!merged.at(-1)?.absorb(group)) merged.push(group);
  // Usually they merge into one group: one prepared statement, committed on its own.
  const one = merged.length === 1 ? merged[0]!.statement() : undefined;
  if (merged.length === 1 && (merged[0]!.empty || one)) {
    if (one) await client.query(one);
    return;
  }
  const steps = merged.flatMap((group) => group.statements(client));
  if (steps.length === 0) return;
  try {
    await client.query(`BEGIN; ${steps.join(';\n')}; COMMIT`);
  } catch (cause) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw cause;
  }
}
