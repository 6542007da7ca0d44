import type { RememberedTable } from '../resource.js';
import type { OrderFacts } from './facts.js';

export { cents, utcDate } from './cardValues.js';

/**
 * The card payments of the orders sent (last four digits, value in cents, the order's UTC
 * creation date): what a chargeback row that carries none of the order's ids is matched by
 * (source-files.md A.0.7, the card key). Looked up by those three, never read back with an order.
 */
export const orderCards: RememberedTable<OrderFacts> = {
  name: 'order_cards',
  columns: ['payment_id', 'last_four', 'value_cents', 'sale_date'],
  key: 1,
  lookup: ['last_four', 'value_cents', 'sale_date'],
  rows: (facts) => (facts.cards ?? []).map((c) => [c.paymentId, c.lastFour, c.cents, c.date]),
};
