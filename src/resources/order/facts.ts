import { isRecord } from '../../schema/checks.js';
import { textField, type Facts, type StateWrites } from '../resource.js';
import { cents, utcDate } from './cardValues.js';

/** What the flow rules need of an order creation. */
export interface OrderFacts extends Facts {
  kind: 'order';
  evaluate: boolean;
  status?: string;
  /** A card payment with a value also has its card key (chargebacks, source-files.md A.0.7), with `saleDate`. */
  payments: { id: string; acquirerId?: string; lastFour?: string; cents?: string }[];
  /** Its delivery ids. */
  claims: string[];
  /** The order's UTC creation date, when some payment has a card key. */
  saleDate?: string;
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
  const date = utcDate(record.creation_datetime);
  let carded = false;
  eachRecord(record.payments, (p) => {
    const id = textField(p.id);
    if (!id) return;
    const acquirerId = textField(p.acquirer_id);
    const payment: OrderFacts['payments'][number] = acquirerId ? { id, acquirerId } : { id };
    payments.push(payment);
    const lastFour = isRecord(p.card) ? textField(p.card.last_four_digits) : undefined;
    // An order of one payment with no value: the payment is the order's total (source-files.md A.0.7).
    const value =
      p.value ??
      (Array.isArray(record.payments) && record.payments.length === 1 ? record.total_paid_value : null);
    const amount = cents(value);
    // Folded into the payment (two strings), not a list of its own: the facts cross threads for every order.
    if (lastFour && amount !== null && date !== null) {
      payment.lastFour = lastFour;
      payment.cents = amount;
      carded = true;
    }
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
  if (carded && date !== null) facts.saleDate = date;
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
  const date = facts.saleDate;
  for (const p of facts.payments) {
    const card =
      p.cents !== undefined && date !== undefined ? ([p.lastFour!, p.cents, date] as const) : undefined;
    writes.addPayment(facts.orderId, p.id, p.acquirerId ?? null, card);
  }
  for (const id of facts.claims) writes.addDelivery(facts.orderId, id);
}
