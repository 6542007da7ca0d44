import { error, type Issue } from '../core/issue.js';
import type { CompiledField, CompiledList, CompiledRow, RelatedRows } from './compileRow.js';

/** Where a list element came from: its file and line. */
export interface ChildLocation {
  file: string;
  line: number;
}

/** A row of another file (or of the same file, by key) that a record was built from: a list element's or a lookup's. */
export interface BuiltFrom extends ChildLocation {
  cells: readonly string[];
}

/**
 * One source row mapped: the record, its conversion problems, and the rows its list elements came from (by
 * path prefix).
 */
export interface MappedRow {
  value: Record<string, unknown>;
  issues: Issue[];
  children?: Map<string, ChildLocation>;
  /**
   * Every row of a list or a lookup the record was built from, in the order read (--rejects writes them with
   * the record's own).
   */
  rows?: BuiltFrom[];
}

type Container = Record<string, unknown> | unknown[];

function setPath(record: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let container: Container = record;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i]!;
    const existing = (container as Record<string, unknown>)[key];
    if (typeof existing === 'object' && existing !== null) {
      container = existing as Container;
      continue;
    }
    const child: Container = /^\d+$/.test(segments[i + 1]!) ? [] : {};
    define(container, key, child);
    container = child;
  }
  define(container, segments[segments.length - 1]!, value);
}

function define(container: Container, key: string, value: unknown): void {
  // A target named __proto__ must become an own field, never the object's prototype.
  if (key === '__proto__')
    Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
  else (container as Record<string, unknown>)[key] = value;
}

function getPath(record: unknown, segments: readonly string[]): unknown {
  let current = record;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * What mapping a row gathers besides the record: problems, where list elements came from, and (`keepRows`)
 * their rows.
 */
type Gathered = Omit<MappedRow, 'value'> & { keepRows?: true };

/**
 * Maps one row: its lists first (rows of other files by key), then its fields, so a sum sees
 * the list it adds up. Child rows come from `related`, never held whole; `keepRows`: the rows
 * of its lists and lookups come back too (for --rejects).
 */
export function applyRow(
  row: CompiledRow,
  cells: readonly string[],
  related: RelatedRows,
  keepRows = false,
): MappedRow {
  const gathered: Gathered = { issues: [], ...(keepRows ? { keepRows: true } : {}) };
  const value = buildRow(row, cells, related, '', gathered);
  delete gathered.keepRows;
  return { value, ...gathered };
}

function buildRow(
  row: CompiledRow,
  cells: readonly string[],
  related: RelatedRows,
  prefix: string,
  gathered: Gathered,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  const built = new Map<string, Record<string, unknown>[]>();
  for (const list of row.lists) {
    const elements = buildList(list, cells, related, prefix, gathered);
    built.set(list.name, elements);
    if (elements.length > 0) setPath(record, list.segments, elements);
  }
  for (const field of row.fields) {
    const value = fieldValue(field, cells, related, built, prefix, gathered);
    if (value !== undefined) setPath(record, field.segments, value);
  }
  return record;
}

function buildList(
  list: CompiledList,
  cells: readonly string[],
  related: RelatedRows,
  prefix: string,
  gathered: Gathered,
): Record<string, unknown>[] {
  const key = (cells[list.keyPosition] ?? '').trim();
  if (key === '') return [];
  const elements: Record<string, unknown>[] = [];
  for (const child of related.list(list.file, list.keyColumn, key)) {
    if (!list.row.keep(child.cells)) continue;
    const path = `${prefix}${list.name}.${elements.length}`;
    const location = { file: child.file ?? list.file, line: child.line };
    (gathered.children ??= new Map()).set(path, location);
    if (gathered.keepRows) (gathered.rows ??= []).push({ ...location, cells: child.cells });
    const before = gathered.issues.length;
    elements.push(buildRow(list.row, child.cells, related, `${path}.`, gathered));
    for (let i = before; i < gathered.issues.length; i++)
      gathered.issues[i] = { ...gathered.issues[i]!, child: gathered.issues[i]!.child ?? location };
  }
  return elements;
}

function fieldValue(
  field: CompiledField,
  cells: readonly string[],
  related: RelatedRows,
  built: Map<string, Record<string, unknown>[]>,
  prefix: string,
  gathered: Gathered,
): unknown {
  const source = field.value;
  switch (source.kind) {
    case 'value':
      return source.value;
    case 'cell':
    case 'lookup': {
      let text: string | undefined;
      if (source.kind === 'cell') text = cells[source.position];
      else {
        const key = (cells[source.keyPosition] ?? '').trim();
        const found = key === '' ? undefined : related.lookup(source.file, source.keyColumn, key);
        if (found && gathered.keepRows)
          (gathered.rows ??= []).push({ file: source.file, line: found.line, cells: found.cells });
        text = found?.cells[source.position];
      }
      const outcome = source.read(text ?? '');
      if ('absent' in outcome) {
        // One warning per pattern and cell, however many fields read that match (a street's name and number).
        const said = outcome.issue;
        if (
          said &&
          !gathered.issues.some((issue) => issue.code === said.code && issue.message === said.message)
        )
          gathered.issues.push({ ...said, path: `${prefix}${field.target}` });
        return undefined;
      }
      if (outcome.ok) return outcome.value;
      // A refused cell is not kept: its one issue says why, and no later check judges the raw text again.
      gathered.issues.push({ ...outcome.issue, path: `${prefix}${field.target}` });
      return undefined;
    }
    case 'template': {
      let text = '';
      let filled = false;
      for (const part of source.parts) {
        if (typeof part === 'string') text += part;
        else {
          const cell = (cells[part] ?? '').trim();
          if (cell !== '') filled = true;
          text += cell;
        }
      }
      return filled ? text : undefined;
    }
    case 'sum': {
      const elements = built.get(source.list) ?? [];
      let sum = 0;
      let counted = 0;
      for (const [at, element] of elements.entries()) {
        const value = getPath(element, source.field);
        if (source.times === undefined) {
          if (typeof value === 'number') {
            sum += value;
            counted++;
          }
          continue;
        }
        const factor = getPath(element, source.times);
        if (typeof value === 'number' && typeof factor === 'number') {
          sum += value * factor;
          counted++;
        } else {
          const missing = missingFactor(source, at, value, prefix, gathered);
          // A cell refused when read already has its issue at that path.
          if (!gathered.issues.some((issue) => issue.path === missing.path)) gathered.issues.push(missing);
        }
      }
      // Cents added as floats drift (0.1 + 0.2): round far below a cent.
      return counted === 0 ? undefined : Math.round(sum * 1e6) / 1e6;
    }
  }
}

/** An element of a `sum … times` lacking one of its two numbers: an error of that element, at the missing field. */
function missingFactor(
  source: Extract<CompiledField['value'], { kind: 'sum' }>,
  at: number,
  value: unknown,
  prefix: string,
  gathered: Gathered,
): Issue {
  const element = `${prefix}${source.list}.${at}`;
  const missing = typeof value === 'number' ? source.times! : source.field;
  const child = gathered.children?.get(element);
  return error(
    'sum-element-incomplete',
    `${element}.${missing.join('.')}`,
    `${field(source.list, source.field)} × ${field(source.list, source.times!)} cannot be summed: ` +
      `this element has no number in ${missing.join('.')}`,
    { hint: 'fill the cell of this row, or leave the row out with when:', ...(child ? { child } : {}) },
  );
}

function field(list: string, segments: readonly string[]): string {
  return `${list}.${segments.join('.')}`;
}

/** Gives issues inside a list element the child row they came from (schema and flow issues found after mapping). */
export function locateInChildren<T extends Issue>(
  issues: T[],
  children: ReadonlyMap<string, ChildLocation> | undefined,
): T[] {
  if (!children || children.size === 0) return issues;
  return issues.map((issue) => {
    if (issue.child || issue.path === '') return issue;
    const segments = issue.path.split('.');
    for (let length = segments.length; length > 1; length--) {
      const location = children.get(segments.slice(0, length).join('.'));
      if (location) return { ...issue, child: location };
    }
    return issue;
  });
}
