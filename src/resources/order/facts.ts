import { isRecord } from '../../schema/checks.js';
import { textField, type Facts, type StateWrites } from '../resource.js';

/** What the flow rules need of an order creation. */
export interface OrderFacts extends Facts {
  kind: 'order';
  evaluate: boolean;
  status?: string;
  payments: { id: string; acquirerId?: string }[];
  /** Its delivery ids. */
  claims: string[];
}

/** The objects of a list field (anything else in it, or a field that is not a list, gives none). */
function eachRecord(value: unknown, take: (item: Record<string, unknown>) => void): void {
  if (!Array.isArray(value)) return;
  for (const item of value) if (isRecord(item)) take(item);
}

// Plain loops, no intermediate arrays: this runs for every order of a dry run or backfill.
export function orderFacts(record: Record<string, unknown>): OrderFacts | null {
  const orderId = textField(record.id);
  if (!orderId) return null;
  const payments: OrderFacts['payments'] = [];
  eachRecord(record.payments, (p) => {
    const id = textField(p.id);
    if (!id) return;
    const acquirerId = textField(p.acquirer_id);
    payments.push(acquirerId ? { id, acquirerId } : { id });
  });
  const claims: string[] = [];
  eachRecord(record.deliveries, (d) => {
    const id = textField(d.id);
    if (id) claims.push(id);
  });
  const status = textField(record.status);
  const facts: OrderFacts = {
    kind: 'order',
    orderId,
    key: orderId,
    evaluate: record.evaluate === true,
    payments,
    claims,
  };
  if (status) facts.status = status;
  return facts;
}

export function rememberOrder(facts: OrderFacts, writes: StateWrites, hash: string, decision?: string): void {
  writes.createOrder({
    orderId: facts.orderId,
    hash,
    evaluate: facts.evaluate,
    status: facts.status ?? null,
  });
  if (decision) writes.setDecision(facts.orderId, decision);
  for (const p of facts.payments) writes.addPayment(facts.orderId, p.id, p.acquirerId ?? null);
  for (const id of facts.claims) writes.addDelivery(facts.orderId, id);
}
