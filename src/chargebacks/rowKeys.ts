import {
  authKey,
  authorizationKey,
  cardKey,
  centsKey,
  dayOf,
  digitsKey,
  lastFourKey,
  nearDays,
  terminalKey,
} from './matchKeys.js';
import { isPlaceholderId } from './placeholderId.js';

/** The fields of a row (or an exported order) that carry the cascade's keys (source-files.md A.0.3). */
export interface KeyFields {
  acquirer_id?: string | undefined;
  order_id?: string | undefined;
  arn?: string | undefined;
  card_last_four?: string | undefined;
  amount?: number | undefined;
  sale_amount?: number | undefined;
  sale_date?: string | undefined;
  authorization_code?: string | undefined;
  nsu?: string | undefined;
  terminal_id?: string | undefined;
}

/** The cascade's keys of one row, each in its normal form (matchKeys.ts); a key missing a part is absent. */
export interface RowKeys {
  acquirerId?: string;
  orderId?: string;
  arn?: string;
  /** The card key on each day it matches (the sale date ±1). */
  card?: string[];
  /** The authorisation key on each day it matches. */
  authorization?: string[];
}

const present = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value;

/** The card key's parts on the sale day: last four, cents, day (null when one is missing). */
export function cardParts(fields: KeyFields): { lastFour: string; cents: string; day: number } | null {
  const lastFour = present(fields.card_last_four) === undefined ? null : lastFourKey(fields.card_last_four!);
  const cents = centsKey(fields.sale_amount ?? fields.amount);
  const day = present(fields.sale_date) === undefined ? null : dayOf(fields.sale_date!);
  if (lastFour === null || cents === null || day === null) return null;
  return { lastFour, cents, day };
}

/** The authorisation key's parts: the code, the NSU (else the terminal id), the sale day. */
export function authorizationParts(fields: KeyFields): { code: string; second: string; day: number } | null {
  const code = present(fields.authorization_code);
  const nsu = present(fields.nsu);
  const terminal = present(fields.terminal_id);
  const day = present(fields.sale_date) === undefined ? null : dayOf(fields.sale_date!);
  if (code === undefined || (nsu === undefined && terminal === undefined) || day === null) return null;
  const second = nsu !== undefined ? `n:${digitsKey(nsu)}` : `t:${terminalKey(terminal!)}`;
  return { code: authorizationKey(code), second, day };
}

/** Every key a row carries, normalised; placeholders (N/A, -) are no acquirer id. */
export function rowKeys(fields: KeyFields): RowKeys {
  const keys: RowKeys = {};
  const acquirerId = present(fields.acquirer_id);
  if (acquirerId !== undefined && !isPlaceholderId(acquirerId)) keys.acquirerId = acquirerId;
  const orderId = present(fields.order_id);
  if (orderId !== undefined) keys.orderId = orderId.trim();
  const arn = present(fields.arn);
  if (arn !== undefined) keys.arn = digitsKey(arn);
  const card = cardParts(fields);
  if (card) keys.card = nearDays(card.day).map((day) => cardKey(card.lastFour, card.cents, day));
  const auth = authorizationParts(fields);
  if (auth) keys.authorization = nearDays(auth.day).map((day) => authKey(auth.code, auth.second, day));
  return keys;
}

/** Whether a row carries any key the cascade can use (else it is `missing-id`). */
export function hasAnyKey(fields: KeyFields): boolean {
  const keys = rowKeys(fields);
  return (
    keys.acquirerId !== undefined ||
    keys.orderId !== undefined ||
    keys.arn !== undefined ||
    keys.card !== undefined ||
    keys.authorization !== undefined
  );
}
