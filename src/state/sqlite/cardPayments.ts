import { arrays, type Database } from '../../platform/sqlite.js';
import { CARD_COLUMNS } from '../coreTables.js';

/**
 * The orders whose card payments hold each card key (last four, cents, UTC date; source-files.md A.0.7):
 * `tuple` is the key's position in `cards`. One pass over the card payments, the keys held in memory, and no
 * index: an index cost every run that writes orders a build at its end, for a lookup only a chargebacks run
 * makes, once, with all its keys.
 */
export function ordersByCard(
  db: Database,
  cards: readonly (readonly string[])[],
): { tuple: number; orderId: string }[] {
  const found: { tuple: number; orderId: string }[] = [];
  if (cards.length === 0) return found;
  const wanted = new Map<string, number[]>();
  for (const [tuple, values] of cards.entries()) {
    const key = values.join('\u0000');
    const tuples = wanted.get(key);
    if (tuples) tuples.push(tuple);
    else wanted.set(key, [tuple]);
  }
  // Not DISTINCT: SQLite would sort every card payment for it; the few that match are told apart here.
  const payments = arrays<[string, string, string, string]>(
    db.prepare(`SELECT order_id, ${CARD_COLUMNS.join(', ')} FROM order_payments WHERE last_four IS NOT NULL`),
  );
  const seen = new Set<string>();
  for (const [orderId, lastFour, cents, date] of payments.iterate())
    for (const tuple of wanted.get(`${lastFour}\u0000${cents}\u0000${date}`) ?? []) {
      const pair = `${tuple} ${orderId}`;
      if (seen.has(pair)) continue;
      seen.add(pair);
      found.push({ tuple, orderId });
    }
  return found;
}
