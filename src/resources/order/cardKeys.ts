import type { CardKey } from '../resource.js';

// The text of an order's card keys: its UTC creation date, then for each card payment its position in the
// order's payments, its last four digits and its value in cents, all separated by spaces.

/**
 * `cards` (the creation date, or the keys so far) with one more card payment's key. A last four digits
 * holding a space is left out: no chargeback's card key (four digits) could match it.
 */
export function withCard(cards: string, position: number, lastFour: string, cents: string): string {
  return lastFour.includes(' ') ? cards : `${cards} ${position} ${lastFour} ${cents}`;
}

/** The card keys of an order's payments, by position (none: the order has no card payment). */
export function cardKeys(cards: string | undefined): (CardKey | undefined)[] | undefined {
  if (cards === undefined) return undefined;
  const parts = cards.split(' ');
  const keys: (CardKey | undefined)[] = [];
  for (let at = 1; at + 2 < parts.length; at += 3)
    keys[Number(parts[at])] = [parts[at + 1]!, parts[at + 2]!, parts[0]!];
  return keys;
}
