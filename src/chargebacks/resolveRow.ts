import { error, type Issue } from '../core/issue.js';
import type { ChargebackRow } from './chargebackRow.js';
import type { IndexedKey, MatchKey, MatchSources, RowOutcome } from './matchSources.js';
import { rowKeys } from './rowKeys.js';

/** What the cascade decided for a row: its order and the key that found it, or why none. */
export type Resolution = { orderId: string; matchedBy: MatchKey } | { outcome: RowOutcome; issue: Issue };

const quoted = (orders: readonly string[]) =>
  orders
    .slice(0, 5)
    .map((o) => `"${o}"`)
    .join(', ');

/** The distinct orders some day's form of a key belongs to. */
function ordersOf(sources: MatchSources, kind: IndexedKey, keys: readonly string[]): string[] {
  const found = new Set<string>();
  for (const key of keys) for (const orderId of sources.ordersByKey(kind, key)) found.add(orderId);
  return [...found];
}

const ambiguous = (code: string, path: string, message: string, value: string): Resolution => ({
  outcome: 'ambiguous',
  issue: error(code, path, message, {
    value,
    hint: 'find the right order by hand and give its order_id in the row (nothing is sent for it until then)',
  }),
});

/**
 * The order a row names (source-files.md A.0.7): its keys in the cascade's order, acquirer id,
 * order reference, ARN, card key, authorisation key; the first that finds exactly one order wins,
 * one that finds two or more stops the cascade (`ambiguous`, never a guess).
 */
export function resolveRow(row: ChargebackRow, sources: MatchSources): Resolution {
  const keys = rowKeys(row);
  const acquirerId = row.acquirer_id;
  if (keys.acquirerId !== undefined) {
    const orders = [...new Set(sources.owners(keys.acquirerId).map((owner) => owner.orderId))];
    if (orders.length > 1)
      return ambiguous(
        'ambiguous-acquirer-id',
        'acquirer_id',
        `acquirer id "${keys.acquirerId}" belongs to ${orders.length} orders: ${quoted(orders)}`,
        keys.acquirerId,
      );
    if (orders.length === 1) {
      if (keys.orderId !== undefined && keys.orderId !== orders[0])
        return {
          outcome: 'ambiguous',
          issue: error(
            'ambiguous-acquirer-id',
            'order_id',
            `the row names order "${keys.orderId}" but acquirer id "${keys.acquirerId}" belongs to ` +
              `order "${orders[0]!}"`,
            { value: keys.orderId, hint: 'check which order the chargeback is for and correct the row' },
          ),
        };
      return { orderId: orders[0]!, matchedBy: 'acquirer_id' };
    }
  }
  // An order id no source can deny is taken as it is (no state, no --orders): as before the cascade.
  if (keys.orderId !== undefined && (!sources.knowsOrders || sources.orderKnown(keys.orderId)))
    return { orderId: keys.orderId, matchedBy: 'order_id' };
  if (keys.arn !== undefined) {
    const orders = ordersOf(sources, 'arn', [keys.arn]);
    if (orders.length > 1)
      return ambiguous(
        'ambiguous-arn',
        'arn',
        `ARN "${row.arn ?? ''}" belongs to ${orders.length} orders: ${quoted(orders)}`,
        row.arn ?? '',
      );
    if (orders.length === 1) return { orderId: orders[0]!, matchedBy: 'arn' };
  }
  for (const [kind, composite, path] of [
    ['card', keys.card, 'card_last_four'],
    ['authorization', keys.authorization, 'authorization_code'],
  ] as const) {
    if (composite === undefined) continue;
    const orders = ordersOf(sources, kind, composite);
    const key =
      kind === 'card'
        ? 'card key (last four + amount + sale date ±1 day)'
        : 'authorisation key (authorisation code + NSU or terminal + sale date ±1 day)';
    if (orders.length > 1)
      return ambiguous(
        'ambiguous-composite',
        path,
        `the ${key} belongs to ${orders.length} orders: ${quoted(orders)}`,
        (kind === 'card' ? row.card_last_four : row.authorization_code) ?? '',
      );
    if (orders.length === 1) return { orderId: orders[0]!, matchedBy: 'composite' };
  }
  return unmatched(row, keys, acquirerId);
}

/** No key found an order: the issue of the first key the row had. */
function unmatched(
  row: ChargebackRow,
  keys: ReturnType<typeof rowKeys>,
  acquirerId: string | undefined,
): Resolution {
  const no = (code: string, path: string, message: string, value: string, hint: string): Resolution => ({
    outcome: 'unmatched',
    issue: error(code, path, message, { value, hint }),
  });
  if (keys.acquirerId !== undefined)
    return no(
      'unknown-acquirer-id',
      'acquirer_id',
      `no order known to collect carries acquirer id "${keys.acquirerId}"` +
        `${keys.orderId === undefined ? '' : ` (nor is order "${keys.orderId}" known)`}`,
      keys.acquirerId,
      "give --orders FILE (an export with the order id and the acquirer's transaction id), or the order_id in the row",
    );
  if (keys.orderId !== undefined)
    return no(
      'unknown-order-id',
      'order_id',
      `no order "${keys.orderId}" is known to collect (the state or --orders)`,
      keys.orderId,
      'check the order id, or give --orders FILE with it',
    );
  if (keys.arn !== undefined)
    return no(
      'unknown-arn',
      'arn',
      `no order known to collect carries ARN "${row.arn ?? ''}"`,
      row.arn ?? '',
      'the state has no ARNs: give --orders FILE, an export with order_id and arn',
    );
  if (keys.card !== undefined || keys.authorization !== undefined)
    return no(
      'unknown-composite',
      keys.card !== undefined ? 'card_last_four' : 'authorization_code',
      'no order known to collect has this card (last four + amount + sale date ±1 day) or ' +
        'authorisation (code + NSU or terminal + sale date ±1 day)',
      row.card_last_four ?? row.authorization_code ?? '',
      'give --orders FILE with the orders of that day, or the order_id in the row',
    );
  return no(
    'missing-id',
    'acquirer_id',
    `acquirer id "${acquirerId ?? ''}" is a placeholder, no id`,
    acquirerId ?? '',
    "give the acquirer's transaction id, or the order_id in the row",
  );
}
