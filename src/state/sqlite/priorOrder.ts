import type { PriorOrder } from '../../flow/timeline.js';
import { hashText } from '../compactRows.js';

/**
 * The decision the flow rules go by: a reject from either source wins (§1.5 must hold), then the service's
 * own answer to collect.
 */
function knownDecision(answered: string | null, loaded: string | undefined): string | null {
  if (answered === 'reject' || loaded === 'reject') return 'reject';
  return answered ?? loaded ?? null;
}

/**
 * One row of what the state knows of an order: 0 the order (hash, evaluate, decision, last status), 1 a
 * payment (id, acquirer id), 2 a delivery id, 3 a fraud mark.
 */
export type PriorRow = [0 | 1 | 2 | 3, Uint8Array | string, unknown, unknown, unknown];

/**
 * Everything the state knows of one order in one statement (one call per order in a later run's pass 2, not
 * four), each part in key order.
 */
export const PRIOR_ROWS = `SELECT 0, hash, evaluate, decision, last_status FROM orders WHERE order_id = ?
  UNION ALL SELECT 1, payment_id, acquirer_id, NULL, NULL FROM order_payments WHERE order_id = ?
  UNION ALL SELECT 2, delivery_id, NULL, NULL, NULL FROM order_deliveries WHERE order_id = ?
  UNION ALL SELECT 3, signal_type, NULL, NULL, NULL FROM fraud_marks WHERE order_id = ?`;

/**
 * What the state knows of one order, from its rows (PRIOR_ROWS) and a decision loaded from a file: null when
 * nothing.
 */
export function priorOrderOf(
  rows: readonly PriorRow[],
  loaded: string | undefined,
  declared?: PriorOrder['rows'],
): PriorOrder | null {
  let row: PriorRow | undefined;
  const payments: Record<string, string | null> = {};
  const deliveryIds: string[] = [];
  const fraudTypes: string[] = [];
  for (const r of rows) {
    if (r[0] === 0) row = r;
    else if (r[0] === 1) payments[r[1] as string] = r[2] as string | null;
    else if (r[0] === 2) deliveryIds.push(r[1] as string);
    else fraudTypes.push(r[1] as string);
  }
  if (!row) {
    return fraudTypes.length > 0 || loaded !== undefined || declared !== undefined
      ? {
          created: false,
          hash: '',
          evaluate: false,
          decision: loaded ?? null,
          lastStatus: null,
          payments: {},
          deliveryIds: [],
          fraudTypes,
          ...(declared ? { rows: declared } : {}),
        }
      : null;
  }
  return {
    created: true,
    hash: hashText(row[1] as Uint8Array | string),
    evaluate: row[2] === 1,
    decision: knownDecision(row[3] as string | null, loaded),
    lastStatus: row[4] as string | null,
    payments,
    deliveryIds,
    fraudTypes,
    ...(declared ? { rows: declared } : {}),
  };
}
