import { DateTime, type Zone } from 'luxon';

/**
 * A report's date as A.0.5 writes it: a bare date as `yyyy-MM-dd`, a date-time with an offset (or
 * a local one whose zone the report names in a column) as its UTC instant, a local date-time in no
 * known zone as `yyyy-MM-ddTHH:mm:ss`. Patterns are luxon's (LDML-like: `M/d/yyyy`,
 * `yyyy/MM/dd HH:mm:ss ZZZ`), tried in order; undefined: none fits.
 */
export function reportDate(written: string, patterns: readonly string[], zone?: Zone): string | undefined {
  for (const pattern of patterns) {
    const withOffset = /Z/.test(pattern);
    const parsed = DateTime.fromFormat(
      written.trim(),
      pattern,
      withOffset ? { setZone: true } : { zone: zone ?? 'utc' },
    );
    if (!parsed.isValid) continue;
    if (!/[Hh]/.test(pattern)) return parsed.toFormat('yyyy-MM-dd');
    return withOffset || zone !== undefined
      ? `${parsed.toUTC().toFormat("yyyy-MM-dd'T'HH:mm:ss")}Z`
      : parsed.toFormat("yyyy-MM-dd'T'HH:mm:ss");
  }
  return undefined;
}
