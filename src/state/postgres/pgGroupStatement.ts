/**
 * The kinds of write a group holds, each a list of rows sent as one array parameter per column, of
 * these types; in the order of the statement's CTEs (one may name only those before it).
 */
export const GROUP_KINDS = {
  updates: ['text', 'text', 'text'],
  orders: ['text', 'bigint', 'text', 'boolean', 'text'],
  acquirers: ['text', 'text', 'text'],
  payments: ['text', 'bigint', 'text', 'text'],
  deliveries: ['text', 'bigint', 'text'],
  marks: ['text', 'bigint', 'text'],
  loaded: ['text', 'bigint', 'text', 'text', 'timestamptz'],
  journal: ['text', 'bigint', 'text', 'text', 'text', 'timestamptz'],
} as const;

export type GroupKind = keyof typeof GROUP_KINDS;

const KINDS = Object.keys(GROUP_KINDS) as GroupKind[];

/** A kind whose CTE joins another's rows: the other is sent with it, empty when the group has none. */
const JOINS: Partial<Record<GroupKind, GroupKind>> = { orders: 'updates', payments: 'acquirers' };

/** Each kind's CTEs, given its `unnest(...)` of array parameters ($1 is the namespace). */
const CTES: Record<GroupKind, (rows: string) => string> = {
  updates: (rows) => `updates AS (SELECT * FROM ${rows} AS u(order_id, decision, status)),
  old_orders AS (
    UPDATE collect_orders o SET decision = coalesce(u.decision, o.decision), last_status = coalesce(u.status, o.last_status)
      FROM updates u WHERE o.namespace = $1 AND o.order_id = u.order_id)`,
  orders: (rows) => `new_orders AS (
    INSERT INTO collect_orders (namespace, order_id, shard_key, hash, evaluate, decision, last_status)
    SELECT $1, c.order_id, c.shard_key, c.hash, c.evaluate, u.decision, coalesce(u.status, c.status)
      FROM ${rows} AS c(order_id, shard_key, hash, evaluate, status)
      LEFT JOIN updates u USING (order_id)
    ON CONFLICT DO NOTHING)`,
  acquirers: (rows) => `acquirers AS (SELECT * FROM ${rows} AS a(order_id, payment_id, acquirer_id)),
  old_payments AS (
    UPDATE collect_order_payments p SET updated_acquirer_id = a.acquirer_id
      FROM acquirers a WHERE p.namespace = $1 AND p.order_id = a.order_id AND p.payment_id = a.payment_id)`,
  payments: (rows) => `new_payments AS (
    INSERT INTO collect_order_payments (namespace, order_id, shard_key, payment_id, acquirer_id, updated_acquirer_id)
    SELECT $1, p.order_id, p.shard_key, p.payment_id, p.acquirer_id, a.acquirer_id
      FROM ${rows} AS p(order_id, shard_key, payment_id, acquirer_id)
      LEFT JOIN acquirers a USING (order_id, payment_id)
    ON CONFLICT DO NOTHING)`,
  deliveries: (rows) => `deliveries AS (
    INSERT INTO collect_order_deliveries (namespace, order_id, shard_key, delivery_id)
    SELECT $1, * FROM ${rows} ON CONFLICT DO NOTHING)`,
  marks: (rows) => `marks AS (
    INSERT INTO collect_fraud_marks (namespace, order_id, shard_key, signal_type)
    SELECT $1, * FROM ${rows} ON CONFLICT DO NOTHING)`,
  loaded: (rows) => `loaded AS (
    INSERT INTO collect_decisions (namespace, order_id, shard_key, decision, source, at)
    SELECT $1, * FROM ${rows}
    ON CONFLICT (namespace, order_id) DO UPDATE SET decision = excluded.decision, source = excluded.source, at = excluded.at)`,
  journal: (rows) => `journal AS (
    INSERT INTO collect_journal (namespace, hash, shard_key, endpoint, order_id, outcome, at)
    SELECT $1, * FROM ${rows}
    ON CONFLICT (namespace, hash) DO UPDATE SET endpoint = excluded.endpoint, order_id = excluded.order_id, outcome = excluded.outcome, at = excluded.at)`,
};

/** The kinds a statement sends for a group holding `present`: those, and the ones their CTEs join. */
export function sentKinds(present: ReadonlySet<GroupKind>): GroupKind[] {
  return KINDS.filter((kind) => present.has(kind) || Object.entries(JOINS).some(([joining, joined]) => joined === kind && present.has(joining as GroupKind)));
}

const statements = new Map<string, { name: string; text: string }>();

/**
 * A whole group of PostgreSQL state writes as ONE prepared statement (data-modifying CTEs over
 * unnested array parameters, only for the kinds the group holds: the others would still be
 * planned and run, for nothing): parsed and planned once per connection and shape, committed on
 * its own, one round trip. It gives what pgWrites.ts's statements one after the other give:
 * every CTE sees the state as it was before the statement, so an order (payment) the group
 * creates gets the group's updates in its inserted row, and the UPDATEs reach only the rows that
 * existed before. Parameters: the namespace, then each kind's columns in `kinds`' order (PgWriteGroup.parameters()).
 */
export function groupStatement(kinds: readonly GroupKind[]): { name: string; text: string } {
  const key = kinds.join(',');
  let statement = statements.get(key);
  if (!statement) {
    let next = 2;
    const ctes = kinds.map((kind) => CTES[kind](`unnest(${GROUP_KINDS[kind].map((type) => `$${next++}::${type}[]`).join(', ')})`));
    statement = { name: `collect-write-${kinds.map((kind) => KINDS.indexOf(kind)).join('')}`, text: `WITH\n  ${ctes.join(',\n  ')}\nSELECT 1` };
    statements.set(key, statement);
  }
  return statement;
}
