/**
 * What matching a chargeback row reads (its sources) and the outcomes it gives: shared by matchChargebacks.ts
 * and resolveRow.ts.
 */

/** What became of one row; the first five and `invalid` are the six, `not-fraud` only with --only-fraud. */
export const outcomes = [
  'matched',
  'unmatched',
  'ambiguous',
  'already-marked',
  'refused',
  'invalid',
  'not-fraud',
  // Rows that are no chargeback (source-files.md A.0.4): counted and listed, never matched or sent.
  'fraud-notice',
  'not-chargeback',
] as const;
export type RowOutcome = (typeof outcomes)[number];

/** The keys of the match cascade, in its order (source-files.md A.0.7): what a resolved row says it was found by. */
export const matchKeys = ['acquirer_id', 'order_id', 'arn', 'composite'] as const;
export type MatchKey = (typeof matchKeys)[number];

/** The kinds of key found through an index of their normal forms (matchKeys.ts, rowKeys.ts). */
export type IndexedKey = 'arn' | 'card' | 'authorization';

/** An order an acquirer id belongs to, and where collect learnt it (the state, or --orders FILE). */
export interface Owner {
  orderId: string;
  paymentId: string | null;
  source: 'state' | 'orders';
}

/** What the state knows of an order that bears on its mark. */
export interface OrderFacts {
  /** The service's evaluation decision (`reject`: §1.5). */
  decision: string | null;
  fraudTypes: readonly string[];
}

export interface MatchSources {
  /** The orders each acquirer id belongs to (empty: none known). */
  owners(acquirerId: string): readonly Owner[];
  /** What the state knows of an order; null when nothing. */
  order(orderId: string): OrderFacts | null;
  /** Whether some source could tell an order id it does not know (a state with orders, an orders file). */
  knowsOrders: boolean;
  /** Whether the order exists in a source (state or orders file). */
  orderKnown(orderId: string): boolean;
  /** The orders an ARN, a card key or an authorisation key (in its normal form, on one day) belongs to. */
  ordersByKey(kind: IndexedKey, key: string): readonly string[];
}
