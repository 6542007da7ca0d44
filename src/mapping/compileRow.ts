import type * as z from 'zod';
import { closest } from '../core/suggest.js';
import { fieldKindAt } from '../schema/introspect.js';
import type { Condition, FieldSpec, KeyPair, ListSpec, MappingProblem, RowSpec } from './mappingSpec.js';
import { filesOfFrom, isGlob, SELF } from './fromFiles.js';
import { cellReader, type CellReader } from './readCell.js';
import { listElement, resolveTarget } from './targetField.js';
import { isKnownZone } from './zoneTime.js';

type AnySchema = z.core.$ZodType;

/** A row of another file, found by key. */
export interface RelatedRow {
  cells: readonly string[];
  line: number;
  /** The file it came from, when the list or lookup reads several (a glob); else the one it names. */
  file?: string;
}

/**
 * Rows of other files by key: lists (every match, in file order) and lookups (the first match). Edges index
 * them on disk.
 */
export interface RelatedRows {
  list(file: string, keyColumn: string, key: string): Iterable<RelatedRow>;
  lookup(file: string, keyColumn: string, key: string): RelatedRow | undefined;
  /** Fetches the rows of many keys at once (a batch of parent rows), so list and lookup answer from memory. */
  prefetch?(file: string, keyColumn: string, keys: readonly string[]): void;
}

/**
 * Asks `related` for every row a batch of rows will need, one query per file and level: the
 * lists and lookups of the rows, then those of the list elements just fetched (an item's product).
 */
export function prefetchBatch(
  row: CompiledRow,
  batch: readonly (readonly string[])[],
  related: RelatedRows,
): void {
  if (!related.prefetch) return;
  const keysAt = (position: number) => [
    ...new Set(batch.map((cells) => (cells[position] ?? '').trim()).filter((key) => key !== '')),
  ];
  for (const field of row.fields) {
    if (field.value.kind === 'lookup')
      related.prefetch(field.value.file, field.value.keyColumn, keysAt(field.value.keyPosition));
  }
  for (const list of row.lists) {
    const keys = keysAt(list.keyPosition);
    related.prefetch(list.file, list.keyColumn, keys);
    if (list.row.lists.length === 0 && !list.row.fields.some((field) => field.value.kind === 'lookup'))
      continue;
    const children = keys.flatMap((key) =>
      [...related.list(list.file, list.keyColumn, key)].map((child) => child.cells),
    );
    prefetchBatch(list.row, children, related);
  }
}

export type FieldValue =
  | { kind: 'cell'; position: number; read: CellReader }
  | { kind: 'value'; value: unknown }
  | { kind: 'template'; parts: (string | number)[] }
  | { kind: 'sum'; list: string; field: string[]; times?: string[] }
  | {
      kind: 'lookup';
      file: string;
      keyColumn: string;
      keyPosition: number;
      position: number;
      read: CellReader;
    };

export interface CompiledField {
  target: string;
  segments: string[];
  value: FieldValue;
}

export interface CompiledList {
  name: string;
  segments: string[];
  file: string;
  keyColumn: string;
  keyPosition: number;
  row: CompiledRow;
}

export interface CompiledRow {
  /** Whether a row passes `when:`. */
  keep: (cells: readonly string[]) => boolean;
  fields: CompiledField[];
  lists: CompiledList[];
}

/** An index the edge must build before rows are mapped: a file's rows by one column. */
export interface IndexNeed {
  /** The name lists and lookups ask for: a file's, or a glob's. */
  file: string;
  keyColumn: string;
  /**
   * The files read into it when they are not just `file` (a glob's matches), their columns in the first one's
   * order.
   */
  files?: string[];
}

export interface RowContext {
  /** The header of a file the mapping names (relative to the inputs' folder); undefined when it does not exist. */
  header(file: string): readonly string[] | undefined;
  /** The folder's files, which a glob in a list's or a lookup's from: matches. */
  listing: readonly string[];
  /** Why a file the mapping names may not be read (outside the inputs' folder, a link out of it); undefined: it may. */
  refused?(file: string): string | undefined;
  problems: MappingProblem[];
  indexes: IndexNeed[];
  /**
   * Every header scope opened (the row's, its lists' and lookups'): what each file has read of it
   * (ignored-columns).
   */
  scopes?: HeaderScope[];
}

/** The fix for a from: that leaves the inputs' folder. */
export const OUTSIDE_HINT =
  "from: names a file inside the inputs' folder, and a link there must not lead out of it: copy " +
  'the file into the folder';

/** What one file's header allows: positions of its columns and the columns read. */
class HeaderScope {
  readonly read = new Set<string>();
  constructor(
    readonly file: string,
    readonly header: readonly string[],
    private readonly problems: MappingProblem[],
  ) {}

  position(column: string, line: number): number {
    const at = this.header.indexOf(column);
    if (at >= 0) {
      this.read.add(column);
      return at;
    }
    const trimmed = this.header.findIndex((h) => h.trim() === column.trim());
    if (trimmed >= 0) {
      this.read.add(this.header[trimmed]!);
      return trimmed;
    }
    const guess = closest(column, this.header);
    this.problems.push({
      line,
      message: `the column "${column}" is not in the header of ${this.file}`,
      hint: guess
        ? `did you mean "${guess}"?`
        : `its columns are: ${this.header.slice(0, 12).join(', ')}${this.header.length > 12 ? ', ...' : ''}`,
    });
    return -1;
  }
}

/** Compiles the fields, filter and lists of a record (or list element) read from one file. */
export function compileRow(
  spec: RowSpec,
  schema: AnySchema,
  scope: HeaderScope,
  zone: string,
  context: RowContext,
): CompiledRow {
  const rowZone = spec.zone ?? zone;
  const keep = compileConditions(spec.when, scope);
  const lists = spec.lists.flatMap((list) => compileList(list, schema, scope, rowZone, context));
  const fields = spec.fields.flatMap((field) =>
    compileField(field, schema, scope, rowZone, context, spec.lists),
  );
  return { keep, fields, lists };
}

export function headerScope(
  file: string,
  header: readonly string[],
  problems: MappingProblem[],
): HeaderScope {
  return new HeaderScope(file, header, problems);
}
export type { HeaderScope };

function compileList(
  list: ListSpec,
  schema: AnySchema,
  scope: HeaderScope,
  zone: string,
  context: RowContext,
): CompiledList[] {
  const segments = list.name.split('.');
  const target = resolveTarget(schema, segments);
  if (target.problem) {
    context.problems.push({
      line: list.line,
      message: `lists: ${target.problem}`,
      ...(target.hint ? { hint: target.hint } : {}),
    });
    return [];
  }
  const element = listElement(target.schema);
  if (!element) {
    context.problems.push({
      line: list.line,
      message: `lists: ${list.name} is not a list of objects in the service's record`,
      hint: 'lists fill fields such as payments, items or deliveries',
    });
    return [];
  }
  const joined = joinedHeader(list.from, scope.file, context, (message, hint) =>
    context.problems.push({ line: list.line, message: `the list ${list.name} reads ${message}`, hint }),
  );
  if (!joined) return [];
  const keyPosition = scope.position(list.key.parent, list.line);
  // A list of the row's own file (from: self) reads that file's columns: they count as read there.
  const child =
    joined.name === scope.file ? scope : headerScope(joined.name, joined.header, context.problems);
  if (child !== scope) context.scopes?.push(child);
  child.position(list.key.child, list.line);
  context.indexes.push(indexNeed(joined, list.key.child));
  const row = compileRow(list, element, child, zone, context);
  return keyPosition < 0
    ? []
    : [{ name: list.name, segments, file: joined.name, keyColumn: list.key.child, keyPosition, row }];
}

/** The rows a list or lookup joins: the name they are indexed under, the files, and the header they share. */
interface Joined {
  name: string;
  files: string[];
  header: readonly string[];
}

function indexNeed(joined: Joined, keyColumn: string): IndexNeed {
  const single = joined.files.length === 1 && joined.files[0] === joined.name;
  return { file: joined.name, keyColumn, ...(single ? {} : { files: joined.files }) };
}

/**
 * The files a list's or a lookup's `from:` reads (`self`, a glob, a name) for rows of `own`, and
 * their header: a glob's files must share their columns (in any order), so one mapping reads them all.
 */
function joinedHeader(
  from: string,
  own: string,
  context: RowContext,
  problem: (message: string, hint: string) => void,
): Joined | undefined {
  const name = from === SELF ? own : from;
  const files = filesOfFrom(from, own, context.listing);
  if (files.length === 0) {
    problem(
      `${from}, which matches no file here`,
      'from: is a file name, a glob (orders_*.csv) or self, inside the folder of the file it joins',
    );
    return undefined;
  }
  let header: readonly string[] | undefined;
  for (const file of files) {
    const refusal = context.refused?.(file);
    if (refusal !== undefined) {
      problem(`${file}: ${refusal}`, OUTSIDE_HINT);
      return undefined;
    }
    const columns = context.header(file);
    if (!columns) {
      problem(`${file}, which is not there`, 'from: names a file in the same folder as the file it joins');
      return undefined;
    }
    if (!header) header = columns;
    else if (!sameColumns(header, columns)) {
      problem(
        `${from}, whose files differ in their columns (${files[0]} and ${file})`,
        'the files of one glob must share their columns; give each kind of file its own list or lookup',
      );
      return undefined;
    }
  }
  return { name, files: isGlob(from) || from === SELF ? files : [name], header: header! };
}

function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  const set = (columns: readonly string[]) =>
    JSON.stringify(
      columns
        .map((column) => column.trim())
        .filter((c) => c !== '')
        .sort(),
    );
  return set(a) === set(b);
}

function compileConditions(
  conditions: readonly Condition[],
  scope: HeaderScope,
): (cells: readonly string[]) => boolean {
  const tests = conditions.map((condition) => {
    const position = scope.position(condition.column, condition.line);
    const inSet = condition.in ? new Set(condition.in.map((v) => v.trim().toLowerCase())) : undefined;
    const outSet = condition.notIn ? new Set(condition.notIn.map((v) => v.trim().toLowerCase())) : undefined;
    return (cells: readonly string[]) => {
      const cell = (cells[position] ?? '').trim();
      if (condition.present !== undefined && (cell !== '') !== condition.present) return false;
      const folded = cell.toLowerCase();
      if (inSet && !inSet.has(folded)) return false;
      return !(outSet && outSet.has(folded));
    };
  });
  return tests.length === 0 ? () => true : (cells) => tests.every((test) => test(cells));
}

function compileField(
  field: FieldSpec,
  schema: AnySchema,
  scope: HeaderScope,
  zone: string,
  context: RowContext,
  lists: readonly ListSpec[],
): CompiledField[] {
  const segments = field.target.split('.');
  const target = resolveTarget(schema, segments);
  const problem = (message: string, hint?: string) => {
    context.problems.push({ line: field.line, message, ...(hint ? { hint } : {}) });
    return [];
  };
  if (target.problem) return problem(`the target ${target.problem}`, target.hint);
  const kind = fieldKindAt(schema, segments);
  const source = field.source;
  const reader = (converters: Parameters<typeof cellReader>[0]): CellReader | undefined => {
    const zoneName = converters.zone ?? zone;
    if (converters.datetime !== undefined && !isKnownZone(zoneName)) {
      problem(
        `"${zoneName}" is not a time zone`,
        `use an IANA name such as America/Sao_Paulo or UTC${closestZone(zoneName)}`,
      );
      return undefined;
    }
    const read = cellReader(converters, kind, zoneName);
    if (typeof read === 'string') {
      problem(`${field.target}: ${read}`);
      return undefined;
    }
    return read;
  };
  const compiled = (value: FieldValue): CompiledField[] => [{ target: field.target, segments, value }];
  switch (source.kind) {
    case 'value':
      return compiled({ kind: 'value', value: source.value });
    case 'column': {
      const position = scope.position(source.column, field.line);
      const read = reader(source);
      return position < 0 || !read ? [] : compiled({ kind: 'cell', position, read });
    }
    case 'template': {
      const parts: (string | number)[] = [];
      const pattern = /\{([^{}]+)\}/g;
      let last = 0;
      for (let match = pattern.exec(source.template); match; match = pattern.exec(source.template)) {
        parts.push(source.template.slice(last, match.index), scope.position(match[1]!, field.line));
        last = match.index + match[0].length;
      }
      parts.push(source.template.slice(last));
      if (!parts.some((part) => typeof part === 'number'))
        return problem(
          `the template of ${field.target} names no column`,
          'write columns in braces: "{order_id}-{payment_sequential}"',
        );
      return parts.includes(-1)
        ? []
        : compiled({ kind: 'template', parts: parts.filter((part) => part !== '') });
    }
    case 'sum': {
      const list = lists.find((candidate) => candidate.name === source.list);
      if (!list)
        return problem(
          `sum: ${source.list} is not a list built by this entry's lists:`,
          lists.length > 0
            ? `the lists are: ${lists.map((l) => l.name).join(', ')}`
            : 'add lists: with the rows to sum',
        );
      for (const name of source.times === undefined ? [source.field] : [source.field, source.times])
        if (!list.fields.some((f) => f.target === name))
          return problem(
            `${name === source.field ? 'sum' : 'times'}: the list ${source.list} has no field ${name}`,
            `its fields are: ${list.fields.map((f) => f.target).join(', ')}`,
          );
      return compiled({
        kind: 'sum',
        list: source.list,
        field: source.field.split('.'),
        ...(source.times === undefined ? {} : { times: source.times.split('.') }),
      });
    }
    case 'lookup': {
      const joined = joinedHeader(source.from, scope.file, context, (message, hint) =>
        problem(`lookup reads ${message}`, hint),
      );
      if (!joined) return [];
      const keyPosition = scope.position(source.key.parent, field.line);
      const other = headerScope(joined.name, joined.header, context.problems);
      context.scopes?.push(other);
      other.position(source.key.child, field.line);
      const position = other.position(source.column, field.line);
      const read = reader(source);
      context.indexes.push(indexNeed(joined, source.key.child));
      return keyPosition < 0 || position < 0 || !read
        ? []
        : compiled({
            kind: 'lookup',
            file: joined.name,
            keyColumn: source.key.child,
            keyPosition,
            position,
            read,
          });
    }
  }
}

function closestZone(name: string): string {
  const guess = closest(name, Intl.supportedValuesOf('timeZone'));
  return guess ? ` (did you mean ${guess}?)` : '';
}

export type { KeyPair };
