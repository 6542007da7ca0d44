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

const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);

export function orderFacts(record: Record<string, unknown>): OrderFacts | null {
  const orderId = textField(record.id);
  if (!orderId) return null;
  const payments = list(record.payments).flatMap((p) => {
    const id = textField(p.id);
    if (!id) return [];
    const acquirerId = textField(p.acquirer_id);
    return [acquirerId ? { id, acquirerId } : { id }];
  });
  const deliveryIds = list(record.deliveries).flatMap((d) => textField(d.id) ?? []);
  const status = textField(record.status);
  return { kind: 'order', orderId, key: orderId, evaluate: record.evaluate === true, ...(status ? { status } : {}), payments, claims: deliveryIds };
}

export function rememberOrder(facts: OrderFacts, writes: StateWrites, hash: string, decision?: string): void {
  writes.createOrder({ orderId: facts.orderId, hash, evaluate: facts.evaluate, status: facts.status ?? null });
  if (decision) writes.setDecision(facts.orderId, decision);
  for (const p of facts.payments) writes.addPayment(facts.orderId, p.id, p.acquirerId ?? null);
  for (const id of facts.claims) writes.addDelivery(facts.orderId, id);
}
