import type { RememberedTable } from '../resource.js';
import type { OrderFacts } from './facts.js';

/** An amount in cents, as text: what a chargeback's amount must equal to the cent (null: not a finite number). */
export function cents(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? String(Math.round(value * 100)) : null;
}

/** An ISO datetime's UTC date, `YYYY-MM-DD` (null: not a time). */
export function utcDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}

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
