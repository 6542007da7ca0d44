import type { RunState } from '../state/runState.js';
import { authKey, cardKey, dayText, digitsKey, nearDays } from './matchKeys.js';
import type { ReadRow } from './matchChargebacks.js';
import { keyOf, type WantedKeys } from './ordersExport.js';
import { isPlaceholderId } from './placeholderId.js';
import { authorizationParts, cardParts } from './rowKeys.js';

/** What a report's rows ask of the state and the export, and the card keys as the state's lookup tuples. */
export interface ReportKeys extends WantedKeys {
  /** Each card key on each day it matches: the state's lookup values (last four, cents, date) and its keyOf text. */
  cards: { values: string[]; key: string }[];
  /** Rows whose acquirer id was a placeholder (N/A). */
  placeholderRows: number;
}

/** The keys of every readable row, in their normal forms (rowKeys.ts), each asked once. */
export function reportKeys(rows: readonly ReadRow[]): ReportKeys {
  const acquirerIds = new Set<string>();
  const orderIds = new Set<string>();
  const indexed = new Set<string>();
  const cards = new Map<string, string[]>();
  let placeholderRows = 0;
  for (const { row } of rows) {
    if (!row) continue;
    if (row.acquirer_id !== undefined) {
      if (isPlaceholderId(row.acquirer_id)) placeholderRows++;
      else acquirerIds.add(row.acquirer_id);
    }
    if (row.order_id !== undefined) orderIds.add(row.order_id.trim());
    if (row.arn !== undefined) indexed.add(keyOf('arn', digitsKey(row.arn)));
    const card = cardParts(row);
    for (const day of card ? nearDays(card.day) : []) {
      const key = keyOf('card', cardKey(card!.lastFour, card!.cents, day));
      indexed.add(key);
      cards.set(key, [card!.lastFour, card!.cents, dayText(day)]);
    }
    const auth = authorizationParts(row);
    for (const day of auth ? nearDays(auth.day) : [])
      indexed.add(keyOf('authorization', authKey(auth!.code, auth!.second, day)));
  }
  return {
    acquirerIds,
    orderIds,
    indexed,
    cards: [...cards].map(([key, values]) => ({ key, values })),
    placeholderRows,
  };
}

/** The orders the state's card payments give each wanted card key (its index, one lookup per key and day). */
export async function stateCardOrders(
  state: RunState,
  cards: ReportKeys['cards'],
): Promise<Map<string, Set<string>>> {
  const keyed = new Map<string, Set<string>>();
  const found = await state.ordersByCard(cards.map((card) => card.values));
  for (const { tuple, orderId } of found) {
    const key = cards[tuple]!.key;
    keyed.set(key, (keyed.get(key) ?? new Set<string>()).add(orderId));
  }
  return keyed;
}
