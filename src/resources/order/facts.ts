import { isRecord } from '../../schema/checks.js';
import { textField, type CardKey, type Facts, type StateWrites } from '../resource.js';
import { cardKeys, withCard } from './cardKeys.js';
import { cents, utcDate } from './cardValues.js';

/** What the flow rules need of an order creation. */
export interface OrderFacts extends Facts {
  kind: 'order';
  evaluate: boolean;
  status?: string;
  payments: { id: string; acquirerId?: string }[];
  /** Its delivery ids. */
  claims: string[];
  /**
   * The card keys of its card payments (chargebacks, source-files.md A.0.7) as one text (cardKeys.ts): one
   * string, not a list of objects, for the facts of every order cross threads and the run's index file.
   */
  cards?: string;
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
  let cards: string | undefined;
  eachRecord(record.payments, (p) => {
    const id = textField(p.id);
    if (!id) return;
    const acquirerId = textField(p.acquirer_id);
    const position = payments.length;
    payments.push(acquirerId ? { id, acquirerId } : { id });
    const lastFour = isRecord(p.card) ? textField(p.card.last_four_digits) : undefined;
    // An order of one payment with no value: the payment is the order's total (source-files.md A.0.7).
    const value =
      p.value ??
      (Array.isArray(record.payments) && record.payments.length === 1 ? record.total_paid_value : null);
    const amount = cents(value);
    if (lastFour && amount !== null && date !== null)
      cards = withCard(cards ?? date, position, lastFour, amount);
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
  if (cards !== undefined) facts.cards = cards;
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
  const cards = cardKeys(facts.cards);
  // A payment id given twice is one row, its first one's: it keeps the last card given for that id.
  const cardOf = (id: string) => {
    let card: CardKey | undefined;
    for (const [i, p] of facts.payments.entries()) if (p.id === id) card = cards?.[i] ?? card;
    return card;
  };
  for (const p of facts.payments)
    writes.addPayment(facts.orderId, p.id, p.acquirerId ?? null, cards && cardOf(p.id));
  for (const id of facts.claims) writes.addDelivery(facts.orderId, id);
}
