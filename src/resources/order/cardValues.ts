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
