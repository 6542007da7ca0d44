import { arrays, type Database } from '../../platform/sqlite.js';
import { CARD_COLUMNS } from '../coreTables.js';

/**
 * The orders whose card payments hold each card key (last four, cents, UTC date; source-files.md A.0.7):
 * `tuple` is the key's position in `cards`. One pass over the card payments, the keys held in memory, and no
 * index: an index cost every run that writes orders (a sorted build of 200,000 payments took a tenth of a
 * dry run's time at its end) for a lookup only a chargebacks run makes, once, with all its keys.
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
  const payments = arrays<[string, string, string, string]>(
    db.prepare(
      `SELECT DISTINCT order_id, ${CARD_COLUMNS.join(', ')} FROM order_payments WHERE last_four IS NOT NULL`,
    ),
  );
  for (const [orderId, ...key] of payments.iterate())
    for (const tuple of wanted.get(key.join('\u0000')) ?? []) found.push({ tuple, orderId });
  return found;
}
