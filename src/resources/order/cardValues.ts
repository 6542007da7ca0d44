/** An amount in cents, as text: what a chargeback's amount must equal to the cent (null: not a finite number). */
export function cents(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? String(Math.round(value * 100)) : null;
}

/** A UTC time whose date is its first ten characters: day 1-28 is in every month, the hour below 24. */
const PLAIN_UTC =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,3})?)?Z$/;

/** An ISO datetime's UTC date, `YYYY-MM-DD` (null: not a time). */
// Every order creation's facts read it: the common UTC form is cut, not parsed and printed (4 us a record).
export function utcDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (PLAIN_UTC.test(value)) return value.slice(0, 10);
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}
