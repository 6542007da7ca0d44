const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** The single datetime format of the specification: UTC, `YYYY-MM-DDTHH:mm:ssZ`. */
export const DATETIME_PATTERN = DATETIME.source;

export type DatetimeProblem = 'format' | 'calendar';

/** Checks the exact format and that the text names a real calendar instant (no 30 February). */
export function datetimeProblem(text: string): DatetimeProblem | null {
  const match = DATETIME.exec(text);
  if (!match) return 'format';
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number, number, number, number, number, number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const same =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return same ? null : 'calendar';
}

/** Milliseconds since the epoch of a valid datetime text, or null. */
export function parseDatetime(text: string): number | null {
  return datetimeProblem(text) === null ? Date.parse(text) : null;
}

/** A suggestion for a near miss such as `2024-03-01 14:30:00` or `2024-03-01T14:30:00.000Z`. */
export function datetimeSuggestion(text: string): string | undefined {
  const near = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?(?:Z|[+-]00:?00)?$/.exec(text.trim());
  if (near) return `${near[1]}T${near[2]}Z`;
  const dateOnly = /^(\d{4}-\d{2}-\d{2})$/.exec(text.trim());
  if (dateOnly) return `${dateOnly[1]}T00:00:00Z`;
  return undefined;
}
