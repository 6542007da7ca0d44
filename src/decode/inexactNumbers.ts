import type { Issue } from '../core/issue.js';
import { inexactNumber } from '../schema/exactNumber.js';

/** A run of 16 digits (or digits and a dot), or an exponent: the only way a JSON number can be inexact. */
const SUSPECT = /[\d.]{16}|\d[eE]/;

const isNumberStart = (c: number) => c === 45 || (c >= 48 && c <= 57);
const isNumberPart = (c: number) =>
  (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;

/**
 * The numbers of a valid JSON text that JSON.parse would change (too large, too small, too many
 * digits), with their field paths. Node 20's JSON.parse does not show the source of a number,
 * so the text is scanned, without recursion, and only when it holds a suspect number at all.
 */
export function inexactNumbers(text: string): Issue[] {
  if (!SUSPECT.test(text)) return [];
  const issues: Issue[] = [];
  const path: (string | number)[] = [];
  const inArray: boolean[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 34) end += text.charCodeAt(end) === 92 ? 2 : 1;
      if (expectKey) {
        path[path.length - 1] = JSON.parse(text.slice(i, end + 1)) as string;
        expectKey = false;
      }
      i = end + 1;
    } else if (c === 123 || c === 91) {
      inArray.push(c === 91);
      path.push(c === 91 ? 0 : '');
      expectKey = c === 123;
      i++;
    } else if (c === 125 || c === 93) {
      inArray.pop();
      path.pop();
      i++;
    } else if (c === 44) {
      if (inArray.at(-1)) path[path.length - 1] = (path.at(-1) as number) + 1;
      else expectKey = true;
      i++;
    } else if (isNumberStart(c)) {
      let end = i + 1;
      while (end < text.length && isNumberPart(text.charCodeAt(end))) end++;
      const issue = inexactNumber(text.slice(i, end), path.join('.'));
      if (issue) issues.push(issue);
      i = end;
    } else {
      i++;
    }
  }
  return issues;
}
