import { error, type Issue } from '../core/issue.js';
import type { ChargebackRow } from './chargebackRow.js';
import type { MatchSources, RowOutcome } from './matchSources.js';
import { isPlaceholderId } from './placeholderId.js';

/** The order a row names, or why it names none (an issue of its own). */
export function resolveRow(
  row: ChargebackRow,
  sources: MatchSources,
): { orderId: string } | { outcome: RowOutcome; issue: Issue } {
  const acquirerId = row.acquirer_id;
  if (acquirerId !== undefined && isPlaceholderId(acquirerId) && row.order_id === undefined)
    return {
      outcome: 'unmatched',
      issue: error('missing-id', 'acquirer_id', `acquirer id "${acquirerId}" is a placeholder, no id`, {
        value: acquirerId,
        hint: "give the acquirer's transaction id, or the order_id in the row",
      }),
    };
  if (acquirerId !== undefined && !isPlaceholderId(acquirerId)) {
    const orders = [...new Set(sources.owners(acquirerId).map((owner) => owner.orderId))];
    if (orders.length > 1)
      return {
        outcome: 'ambiguous',
        issue: error(
          'ambiguous-acquirer-id',
          'acquirer_id',
          `acquirer id "${acquirerId}" belongs to ${orders.length} orders: ${orders
            .slice(0, 5)
            .map((o) => `"${o}"`)
            .join(', ')}`,
          {
            value: acquirerId,
            hint: 'find the right order by hand and give its order_id in the row (nothing is sent for it until then)',
          },
        ),
      };
    if (orders.length === 1) {
      if (row.order_id !== undefined && row.order_id !== orders[0])
        return {
          outcome: 'ambiguous',
          issue: error(
            'ambiguous-acquirer-id',
            'order_id',
            `the row names order "${row.order_id}" but acquirer id "${acquirerId}" belongs to order "${orders[0]!}"`,
            {
              value: row.order_id,
              hint: 'check which order the chargeback is for and correct the row',
            },
          ),
        };
      return { orderId: orders[0]! };
    }
    if (row.order_id === undefined)
      return {
        outcome: 'unmatched',
        issue: error(
          'unknown-acquirer-id',
          'acquirer_id',
          `no order known to collect carries acquirer id "${acquirerId}"`,
          {
            value: acquirerId,
            hint: "give --orders FILE (an export with the order id and the acquirer's transaction id), or the order_id in the row",
          },
        ),
      };
  }
  const orderId = row.order_id!;
  if (sources.knowsOrders && !sources.orderKnown(orderId))
    return {
      outcome: 'unmatched',
      issue: error(
        'unknown-order-id',
        'order_id',
        `no order "${orderId}" is known to collect (the state or --orders)`,
        {
          value: orderId,
          hint: 'check the order id, or give --orders FILE with it',
        },
      ),
    };
  return { orderId };
}
