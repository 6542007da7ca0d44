/** The parts of a local date and time read from a cell. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export type PatternParser = (text: string) => LocalTime | undefined;

type Part = keyof LocalTime | 'hour12' | 'ampm' | 'fraction';

/** LDML letters collect understands, longest first: each becomes a capture group. */
const TOKENS: [string, Part, string][] = [
  ['yyyy', 'year', '(\\d{4})'],
  ['yy', 'year', '(\\d{2})'],
  ['y', 'year', '(\\d{1,4})'],
  ['MM', 'month', '(\\d{2})'],
  ['M', 'month', '(\\d{1,2})'],
  ['dd', 'day', '(\\d{2})'],
  ['d', 'day', '(\\d{1,2})'],
  ['HH', 'hour', '(\\d{2})'],
  ['H', 'hour', '(\\d{1,2})'],
  ['hh', 'hour12', '(\\d{2})'],
  ['h', 'hour12', '(\\d{1,2})'],
  ['mm', 'minute', '(\\d{2})'],
  ['m', 'minute', '(\\d{1,2})'],
  ['ss', 'second', '(\\d{2})'],
  ['s', 'second', '(\\d{1,2})'],
  ['a', 'ampm', '([AaPp][Mm])'],
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * Compiles an LDML pattern (`M/d/yyyy H:mm`, `dd/MM/yyyy HH:mm:ss`, `yyyy-MM-dd'T'HH:mm`) into a
 * parser; an unknown letter is an error message, so a typo in the mapping never reads dates wrongly.
 */
export function compilePattern(pattern: string): PatternParser | string {
  let source = '^\\s*';
  const parts: Part[] = [];
  for (let i = 0; i < pattern.length;) {
    const char = pattern[i]!;
    if (char === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end < 0) return `the quote at position ${i + 1} is never closed`;
      source += end === i + 1 ? "'" : escape(pattern.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    if (char === 'S') {
      let j = i;
      while (pattern[j] === 'S') j++;
      source += '(\\d+)';
      parts.push('fraction');
      i = j;
      continue;
    }
    const token = TOKENS.find(
      ([letters]) => pattern.startsWith(letters, i) && pattern[i + letters.length] !== char,
    );
    if (token) {
      source += token[2];
      parts.push(token[1]);
      i += token[0].length;
      continue;
    }
    if (/[A-Za-z]/.test(char))
      return (
        `"${char}" is not a pattern letter collect reads (use yyyy MM M dd d HH H hh h mm m ss s SSS ` +
        `a; quote literal text: 'T')`
      );
    source += escape(char);
    i++;
  }
  const needed: Part[] = ['year', 'month', 'day'];
  const missing = needed.find((part) => !parts.includes(part));
  if (missing) return `the pattern has no ${missing}`;
  if (parts.includes('hour12') !== parts.includes('ampm'))
    return 'h and hh need a (AM/PM); use H or HH for a 24-hour clock';
  const regex = new RegExp(`${source}\\s*$`);
  return (text) => {
    const match = regex.exec(text);
    if (!match) return undefined;
    const time: LocalTime = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
    let pm: boolean | undefined;
    let hour12 = 0;
    parts.forEach((part, n) => {
      const cell = match[n + 1]!;
      if (part === 'ampm') pm = cell.toLowerCase() === 'pm';
      else if (part === 'hour12') hour12 = Number(cell);
      else if (part !== 'fraction') time[part] = Number(cell);
    });
    if (pm !== undefined) {
      if (hour12 < 1 || hour12 > 12) return undefined;
      time.hour = (hour12 % 12) + (pm ? 12 : 0);
    }
    if (time.year < 100 && /yy(?!y)/.test(pattern) && !pattern.includes('yyy')) time.year += 2000;
    return valid(time) ? time : undefined;
  };
}

function valid(time: LocalTime): boolean {
  const days = new Date(Date.UTC(time.year, time.month, 0)).getUTCDate();
  return (
    time.month >= 1 &&
    time.month <= 12 &&
    time.day >= 1 &&
    time.day <= days &&
    time.hour <= 23 &&
    time.minute <= 59 &&
    time.second <= 59
  );
}
