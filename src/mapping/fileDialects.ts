import { filesOfFrom, globPattern } from './fromFiles.js';
import type { CsvDialect, MappingProblem, MappingSpec, RowSpec } from './mappingSpec.js';

/** A dialect with what `more` says over what `base` says. */
export function mergeDialect(base: CsvDialect | undefined, more: CsvDialect | undefined): CsvDialect {
  return { ...base, ...more };
}

/** A dialect as a message names it. */
export function describeDialect(dialect: CsvDialect): string {
  const delimiter = dialect.delimiter ?? ',';
  return (
    `${delimiter === '\t' ? 'tab' : `"${delimiter}"`}-separated ${dialect.encoding ?? 'utf-8'}` +
    `${dialect.quote && dialect.quote !== '"' ? ` quoted with ${dialect.quote}` : ''}`
  );
}

function same(a: CsvDialect, b: CsvDialect): boolean {
  return (
    (a.delimiter ?? ',') === (b.delimiter ?? ',') &&
    (a.quote ?? '"') === (b.quote ?? '"') &&
    (a.encoding ?? 'utf-8') === (b.encoding ?? 'utf-8')
  );
}

/**
 * The dialect of every file a mapping reads in a folder (`csv:` at the top, on an entry, a list or
 * a lookup, each inheriting from the one around it), before any header is read: a file read with
 * two dialects is a problem. `files`: those entries may read; `listing`: what globs of lists match.
 */
export function fileDialects(
  spec: MappingSpec,
  files: readonly string[],
  listing: readonly string[],
): { dialects: Map<string, CsvDialect>; problems: MappingProblem[] } {
  const dialects = new Map<string, { dialect: CsvDialect; line: number }>();
  const problems: MappingProblem[] = [];
  const set = (file: string, dialect: CsvDialect, line: number) => {
    const known = dialects.get(file);
    if (!known) dialects.set(file, { dialect, line });
    else if (!same(known.dialect, dialect))
      problems.push({
        line,
        message:
          `${file} is read here as ${describeDialect(dialect)}, and as ` +
          `${describeDialect(known.dialect)} by line ${known.line}`,
        hint: 'a file has one dialect: give the same csv: wherever it is read',
      });
  };
  const walk = (row: RowSpec, file: string, dialect: CsvDialect) => {
    for (const field of row.fields) {
      const source = field.source;
      if (source.kind !== 'lookup') continue;
      const inner = mergeDialect(dialect, source.csv);
      for (const joined of filesOfFrom(source.from, file, listing)) set(joined, inner, field.line);
    }
    for (const list of row.lists) {
      const inner = mergeDialect(dialect, list.csv);
      for (const joined of filesOfFrom(list.from, file, listing)) {
        set(joined, inner, list.line);
        walk(list, joined, inner);
      }
    }
  };
  for (const entry of spec.entries) {
    const pattern = entry.from === undefined ? undefined : globPattern(entry.from);
    const dialect = mergeDialect(spec.csv, entry.csv);
    for (const file of files.filter((name) => pattern === undefined || pattern.test(name))) {
      set(file, dialect, entry.line);
      walk(entry, file, dialect);
    }
  }
  return {
    dialects: new Map([...dialects].map(([file, { dialect }]) => [file, dialect])),
    problems: [...new Map(problems.map((p) => [`${p.line}\u0000${p.message}`, p])).values()],
  };
}
