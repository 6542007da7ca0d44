import { RE2JS } from 're2js';
import { warning } from '../core/issue.js';
import type { CellOutcome } from './cellOutcome.js';

/** A cell longer than this is not searched: a `match:` reads a street or a code, not a document. */
export const MATCH_CELL_LIMIT = 10_000;

/** A compiled `match:` pattern: its groups, and a search that returns the groups of the first match. */
export interface LinearPattern {
  groups: number;
  named: ReadonlySet<string>;
  exec(text: string): { numbered: (string | null)[]; named: Record<string, string | null> } | null;
}

/**
 * Compiles a mapping's `match:` with RE2 (re2js): time linear in the cell, whatever the pattern,
 * so a nested pattern or a huge cell cannot stall a run. A string is why it cannot be compiled.
 */
export function linearPattern(pattern: string): LinearPattern | string {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (cause) {
    return (cause as Error).message.replace(/^error parsing regexp: /, '');
  }
  const named = compiled.namedGroups();
  return {
    groups: compiled.groupCount(),
    named: new Set(Object.keys(named)),
    exec(text) {
      const matcher = compiled.matcher(text);
      if (!matcher.find()) return null;
      const numbered: (string | null)[] = [];
      for (let group = 0; group <= compiled.groupCount(); group++) numbered.push(matcher.group(group));
      const byName: Record<string, string | null> = {};
      for (const name of Object.keys(named)) byName[name] = matcher.group(name);
      return { numbered, named: byName };
    },
  };
}

/**
 * The group of `pattern`'s first match in a cell (group 1 when there is one, else the whole match); a bad
 * pattern or group is a mistake.
 */
export function cellMatcher(
  pattern: string,
  group: string | number | undefined,
): ((text: string) => string | CellOutcome) | string {
  const regex = linearPattern(pattern);
  if (typeof regex === 'string') return `match: ${regex}`;
  const groups = regex.groups;
  if (typeof group === 'number' && group > groups)
    return (
      `match has ${groups === 0 ? 'no groups' : `${groups} group${groups === 1 ? '' : 's'}`}, so ` +
      `group: ${group} takes nothing`
    );
  if (typeof group === 'string' && !regex.named.has(group)) return `match has no group named "${group}"`;
  const take = group ?? (groups >= 1 ? 1 : 0);
  return (text) => {
    if (text.length > MATCH_CELL_LIMIT)
      return noMatch(
        text,
        `a cell of ${text.length} characters is longer than the ${MATCH_CELL_LIMIT} a match: pattern reads`,
        'a match: cell is a short text (a street, a code): check the column of the mapping (the field was left out)',
      );
    const found = regex.exec(text);
    if (!found)
      return noMatch(
        text,
        `${JSON.stringify(text)} does not match the pattern ${pattern}`,
        'fix the cell, or widen the match: pattern in the mapping (the field was left out)',
      );
    return (typeof take === 'number' ? found.numbered[take] : found.named[take]) ?? '';
  };
}

function noMatch(text: string, message: string, hint: string): CellOutcome {
  const value = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return { ok: true, absent: true, issue: warning('no-match', '', message, { value, hint }) };
}
