import type { RowSpec } from './mappingSpec.js';

/** `from: self`: the file of the row a list or lookup joins. */
export const SELF = 'self';

/** Whether a `from:` is a glob (`orders_*.csv`) rather than one file's name. */
export function isGlob(from: string): boolean {
  return /[*?]/.test(from);
}

/** A glob over file names, ignoring case. */
export interface GlobPattern {
  test(name: string): boolean;
}

/**
 * `*` and `?` globs over a file name, ignoring case. Matched by hand, going back only to the last
 * `*`: at most the name's length times the glob's steps, where a regular expression of many `.*`
 * backtracks for minutes on a long name.
 */
export function globPattern(glob: string): GlobPattern {
  const pattern = glob.toLowerCase();
  return {
    test(name: string): boolean {
      const text = name.toLowerCase();
      let at = 0;
      let from = 0;
      let star = -1;
      let resume = 0;
      while (from < text.length) {
        const char = pattern[at];
        if (char === '*') {
          star = at++;
          resume = from;
        } else if (at < pattern.length && (char === '?' || char === text[from])) {
          at++;
          from++;
        } else if (star >= 0) {
          // The last star takes one more character, and the rest of the glob is tried from there.
          at = star + 1;
          from = ++resume;
        } else return false;
      }
      while (pattern[at] === '*') at++;
      return at === pattern.length;
    },
  };
}

/** `*` and `?` globs over a file name. */
export function globMatches(glob: string, name: string): boolean {
  return globPattern(glob).test(name);
}

/**
 * The files a list's or a lookup's `from:` reads, for a row of `own`: `self` is `own`, a glob
 * every matching file of the folder (`listing`), a name that file.
 */
export function filesOfFrom(from: string, own: string, listing: readonly string[]): string[] {
  if (from === SELF) return [own];
  if (!isGlob(from)) return [from];
  const pattern = globPattern(from);
  return listing.filter((file) => pattern.test(file));
}

/** Every `from:` an entry's lists and lookups name, at any depth (`self` and globs as written). */
export function filesJoined(row: RowSpec, into = new Set<string>()): Set<string> {
  for (const list of row.lists) {
    into.add(list.from);
    filesJoined(list, into);
  }
  for (const field of row.fields) if (field.source.kind === 'lookup') into.add(field.source.from);
  return into;
}

/**
 * The files an entry reading `own` joins, at any depth: a `self` inside a list means that list's
 * file, so each level resolves against the file of the rows it joins.
 */
export function joinedFiles(row: RowSpec, own: string, listing: readonly string[]): Set<string> {
  const into = new Set<string>();
  const walk = (spec: RowSpec, file: string) => {
    for (const field of spec.fields)
      if (field.source.kind === 'lookup')
        for (const name of filesOfFrom(field.source.from, file, listing)) into.add(name);
    for (const list of spec.lists)
      for (const name of filesOfFrom(list.from, file, listing)) {
        into.add(name);
        walk(list, name);
      }
  };
  walk(row, own);
  return into;
}
