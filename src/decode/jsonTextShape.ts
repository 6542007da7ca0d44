/** What a scan of a valid JSON text found: containers nested past the limit, a number that may be inexact. */
export interface JsonTextShape {
  tooDeep: boolean;
  suspectNumber: boolean;
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function escaped(text: string, at: number): boolean {
  let slashes = 0;
  while (text.charCodeAt(at - 1 - slashes) === 92) slashes++;
  return slashes % 2 === 1;
}

const isDigitOrDot = (c: number) => (c >= 48 && c <= 57) || c === 46;

/** Whether a text holds 16 digits or dots in a row anywhere: such a run covers exactly one position 15 mod 16. */
function hasDigitRun(text: string): boolean {
  for (let at = 15; at < text.length; at += 16) {
    if (!isDigitOrDot(text.charCodeAt(at))) continue;
    let start = at;
    let end = at;
    while (start > 0 && isDigitOrDot(text.charCodeAt(start - 1))) start--;
    while (end + 1 < text.length && isDigitOrDot(text.charCodeAt(end + 1))) end++;
    if (end - start >= 15) return true;
  }
  return false;
}

/** Whether a text opens more than `limit` objects and arrays, strings included. */
function opensMoreThan(text: string, limit: number): boolean {
  let opened = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1))
    if (++opened > limit) return true;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1))
    if (++opened > limit) return true;
  return false;
}

const CLEAN: JsonTextShape = Object.freeze({ tooDeep: false, suspectNumber: false });

/**
 * What jsonTextShape finds, with a look at the whole text first: strings included, it can only find more, and
 * most records have neither enough brackets nor a long run of digits nor an exponent (1.2 us a record, the
 * full scan 2.3).
 */
export function jsonTextShape(text: string, limit: number): JsonTextShape {
  if (!opensMoreThan(text, limit) && !hasDigitRun(text) && !/(?<=\d)[eE]/.test(text)) return CLEAN;
  return scannedShape(text, limit);
}

/**
 * One pass over a valid JSON text, strings skipped by indexOf: whether its containers nest deeper than `limit`
 * (as nestsDeeperThan on its value) and whether a number has 16 digits or an exponent (the only way a JSON number
 * can be inexact: inexactNumbers then looks closely). Cheaper than walking the parsed value and a regex over the
 * text, which together cost as much as the schema check.
 */
function scannedShape(text: string, limit: number): JsonTextShape {
  let level = 0;
  let run = 0;
  let suspectNumber = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) break;
      i = end;
      run = 0;
    } else if (c === 123 || c === 91) {
      if (++level > limit) return { tooDeep: true, suspectNumber };
      run = 0;
    } else if ((c >= 48 && c <= 57) || c === 46) {
      if (++run >= 16) suspectNumber = true;
    } else {
      if ((c === 101 || c === 69) && run > 0) suspectNumber = true;
      if (c === 125 || c === 93) level--;
      run = 0;
    }
  }
  return { tooDeep: false, suspectNumber };
}
