/** The status words of platform exports (source-files.md, part B) and the service's status each means. */

/** The service's six statuses (collection-service.md §3). */
export const STATUSES = ['approved', 'declined', 'unauthorized', 'pending', 'manual_analysis', 'cancelled'];

/** A word mapped to null is no status change yet: its rows send no status record. */
const WORDS: Record<string, string | null> = {
  // Shopify's Financial Status.
  paid: 'approved',
  partially_refunded: 'approved',
  authorized: 'pending',
  partially_paid: 'pending',
  refunded: 'cancelled',
  voided: 'cancelled',
  // A marketplace's order_status.
  delivered: 'approved',
  shipped: 'approved',
  invoiced: 'approved',
  canceled: 'cancelled',
  unavailable: 'cancelled',
  processing: 'pending',
  created: null,
};

/**
 * The value map a status column's sampled words need, the words that mean no status yet, and the words no
 * table knows.
 */
export function statusValues(cells: readonly string[]): {
  values: [string, string][];
  none: string[];
  unknown: string[];
} {
  const words = [...new Set(cells.map((cell) => cell.trim().toLowerCase()))];
  const values: [string, string][] = [];
  const none: string[] = [];
  const unknown: string[] = [];
  for (const word of words) {
    const status = Object.hasOwn(WORDS, word) ? WORDS[word] : STATUSES.includes(word) ? word : undefined;
    if (status === null) none.push(word);
    else if (status === undefined) unknown.push(word);
    else values.push([word, status]);
  }
  return { values, none, unknown };
}
