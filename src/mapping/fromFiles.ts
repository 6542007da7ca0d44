import type { RowSpec } from './mappingSpec.js';

/** `from: self`: the file of the row a list or lookup joins. */
export const SELF = 'self';

/** Whether a `from:` is a glob (`orders_*.csv`) rather than one file's name. */
export function isGlob(from: string): boolean {
  return /[*?]/.test(from);
}

/** `*` and `?` globs over a file name, ignoring case. */
export function globPattern(glob: string): RegExp {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, 'i');
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
