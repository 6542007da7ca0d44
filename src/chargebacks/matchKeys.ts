import { cents } from '../resources/order/cardValues.js';

/**
 * How the cascade's keys are compared (source-files.md A.0.7): one normal form per kind of key,
 * so a report, an export and the state that write a key differently still meet.
 */

/** ARNs and NSUs: by their digits, leading zeros removed; anything else as trimmed text. */
export function digitsKey(value: string): string {
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? trimmed.replace(/^0+(?=\d)/, '') : trimmed;
}

/** Authorisation codes: all-digit ones as digits, others case-insensitively. */
export function authorizationKey(value: string): string {
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? digitsKey(trimmed) : trimmed.toLowerCase();
}

/** Terminal ids: case-insensitively, trimmed. */
export const terminalKey = (value: string): string => value.trim().toLowerCase();

/** An amount in cents, as text, as the state keeps it (cards.ts): equal to the cent or not at all. */
export function centsKey(value: unknown): string | null {
  return cents(typeof value === 'string' && value.trim() !== '' ? Number(value) : value);
}

/** The last four digits of a card, from `1808` or a masked number (`516292******1808`). */
export function lastFourKey(value: string): string | null {
  const digits = /(\d{4})\s*$/.exec(value.trim());
  return digits ? digits[1]! : null;
}

const DAY_MS = 86_400_000;

/**
 * A date as its UTC day number: `YYYY-MM-DD` (with or without a time and no zone) is that day; an
 * instant with an offset or `Z` is its UTC date (the order's `creation_datetime`). Null: not a date.
 */
export function dayOf(value: string): number | null {
  const text = value.trim();
  const zoned = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/i.test(text);
  const ms = zoned
    ? Date.parse(text.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
    : /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.test(text)
      ? Date.parse(`${text.slice(0, 10)}T00:00:00Z`)
      : Number.NaN;
  return Number.isNaN(ms) ? null : Math.floor(ms / DAY_MS);
}

/** A day number back to `YYYY-MM-DD` (how the state keeps it). */
export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The days a sale date matches: the day itself and one either side. */
export const nearDays = (day: number): number[] => [day - 1, day, day + 1];

/** The card key's text: last four, cents, day. */
export const cardKey = (lastFour: string, cents: string, day: number): string =>
  `${lastFour}|${cents}|${day}`;

/** The authorisation key's text: the code, the NSU (`n:`) or terminal (`t:`), and the day. */
export const authKey = (code: string, second: string, day: number): string => `${code}|${second}|${day}`;
