/**
 * A whole group of PostgreSQL state writes as ONE prepared statement (data-modifying CTEs over
 * unnested array parameters): parsed and planned once per connection, committed on its own, one
 * round trip. It gives what pgWrites.ts's statements one after the other give: every CTE sees the
 * state as it was before the statement, so an order (payment) the group creates gets the group's
 * updates in its inserted row, and the UPDATEs reach only the rows that existed before.
 * Parameters: PgWriteGroup.parameters().
 */
export const GROUP_STATEMENT = `WITH
  updates AS (SELECT * FROM unnest($7::text[], $8::text[], $9::text[]) AS u(order_id, decision, status)),
  new_orders AS (
    INSERT INTO collect_orders (namespace, order_id, shard_key, hash, evaluate, decision, last_status)
    SELECT $1, c.order_id, c.shard_key, c.hash, c.evaluate, u.decision, coalesce(u.status, c.status)
      FROM unnest($2::text[], $3::bigint[], $4::text[], $5::boolean[], $6::text[]) AS c(order_id, shard_key, hash, evaluate, status)
      LEFT JOIN updates u USING (order_id)
    ON CONFLICT DO NOTHING),
  old_orders AS (
    UPDATE collect_orders o SET decision = coalesce(u.decision, o.decision), last_status = coalesce(u.status, o.last_status)
      FROM updates u WHERE o.namespace = $1 AND o.order_id = u.order_id),
  acquirers AS (SELECT * FROM unnest($14::text[], $15::text[], $16::text[]) AS a(order_id, payment_id, acquirer_id)),
  new_payments AS (
    INSERT INTO collect_order_payments (namespace, order_id, shard_key, payment_id, acquirer_id, updated_acquirer_id)
    SELECT $1, p.order_id, p.shard_key, p.payment_id, p.acquirer_id, a.acquirer_id
      FROM unnest($10::text[], $11::bigint[], $12::text[], $13::text[]) AS p(order_id, shard_key, payment_id, acquirer_id)
      LEFT JOIN acquirers a USING (order_id, payment_id)
    ON CONFLICT DO NOTHING),
  old_payments AS (
    UPDATE collect_order_payments p SET updated_acquirer_id = a.acquirer_id
      FROM acquirers a WHERE p.namespace = $1 AND p.order_id = a.order_id AND p.payment_id = a.payment_id),
  deliveries AS (
    INSERT INTO collect_order_deliveries (namespace, order_id, shard_key, delivery_id)
    SELECT $1, * FROM unnest($17::text[], $18::bigint[], $19::text[]) ON CONFLICT DO NOTHING),
  marks AS (
    INSERT INTO collect_fraud_marks (namespace, order_id, shard_key, signal_type)
    SELECT $1, * FROM unnest($20::text[], $21::bigint[], $22::text[]) ON CONFLICT DO NOTHING),
  loaded AS (
    INSERT INTO collect_decisions (namespace, order_id, shard_key, decision, source, at)
    SELECT $1, * FROM unnest($23::text[], $24::bigint[], $25::text[], $26::text[], $27::timestamptz[])
    ON CONFLICT (namespace, order_id) DO UPDATE SET decision = excluded.decision, source = excluded.source, at = excluded.at),
  journal AS (
    INSERT INTO collect_journal (namespace, hash, shard_key, endpoint, order_id, outcome, at)
    SELECT $1, * FROM unnest($28::text[], $29::bigint[], $30::text[], $31::text[], $32::text[], $33::timestamptz[])
    ON CONFLICT (namespace, hash) DO UPDATE SET endpoint = excluded.endpoint, order_id = excluded.order_id, outcome = excluded.outcome, at = excluded.at)
SELECT 1`;
