const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The single datetime format of the specification: UTC, `YYYY-MM-DDTHH:mm:ssZ`. */
export const DATETIME_PATTERN = DATETIME.source;

export type DatetimeProblem = 'format' | 'calendar';

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const number = (text: string, from: number, to: number) => {
  let value = 0;
  for (let i = from; i < to; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
};

/** Checks the exact format and that the text names a real calendar instant (no 30 February). */
export function datetimeProblem(text: string): DatetimeProblem | null {
  if (!DATETIME.test(text)) return 'format';
  const year = number(text, 0, 4);
  const month = number(text, 5, 7);
  const day = number(text, 8, 10);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  const valid =
    days !== undefined &&
    day >= 1 &&
    day <= days &&
    number(text, 11, 13) < 24 &&
    number(text, 14, 16) < 60 &&
    number(text, 17, 19) < 60;
  return valid ? null : 'calendar';
}

/** Milliseconds since the epoch of a valid datetime text, or null. */
export function parseDatetime(text: string): number | null {
  if (datetimeProblem(text) !== null) return null;
  return Date.UTC(
    number(text, 0, 4),
    number(text, 5, 7) - 1,
    number(text, 8, 10),
    number(text, 11, 13),
    number(text, 14, 16),
    number(text, 17, 19),
  );
}

/** A suggestion for a near miss such as `2024-03-01 14:30:00` or `2024-03-01T14:30:00.000Z`. */
export function datetimeSuggestion(text: string): string | undefined {
  const near = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?(?:Z|[+-]00:?00)?$/.exec(text.trim());
  if (near) return `${near[1]}T${near[2]}Z`;
  const dateOnly = /^(\d{4}-\d{2}-\d{2})$/.exec(text.trim());
  if (dateOnly) return `${dateOnly[1]}T00:00:00Z`;
  return undefined;
}
