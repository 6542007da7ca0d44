import type * as z from 'zod';
import { error, warning, type Issue } from '../core/issue.js';
import { fieldKindAt, type FieldKind } from '../schema/introspect.js';
import { convertCell } from './cells.js';

export interface CsvColumn {
  position: number;
  /** The field path the column fills, after `--map`. */
  path: string;
  segments: string[];
  kind: FieldKind;
}

export interface CsvPlan {
  columns: CsvColumn[];
  width: number;
}

/** `--map`: target field path -> source column; inverted here to rename source headers. */
export type ColumnMap = Readonly<Record<string, string>>;

/**
 * Works out once per file what every column fills and how its cells convert,
 * so that each row is only a loop over cells.
 */
export function planCsvColumns(headers: readonly string[], schema: z.core.$ZodType, map: ColumnMap = {}): { plan: CsvPlan; issues: Issue[] } {
  const renamed = new Map(Object.entries(map).map(([target, source]) => [source, target]));
  const issues: Issue[] = [];
  const missing = Object.entries(map).filter(([, source]) => !headers.includes(source));
  for (const [target, source] of missing) {
    issues.push(error('map-column-missing', target, `--map reads ${target} from the column "${source}", which this file does not have`, { hint: 'fix the column name in the map file' }));
  }
  const seen = new Map<string, number>();
  const columns: CsvColumn[] = [];
  headers.forEach((header, position) => {
    const path = (renamed.get(header) ?? header).trim();
    if (path === '') {
      issues.push(warning('empty-header', '', `column ${position + 1} has no header; its cells are ignored`, { hint: 'name the column or remove it' }));
      return;
    }
    const earlier = seen.get(path);
    if (earlier !== undefined) {
      issues.push(error('duplicate-header', path, `columns ${earlier + 1} and ${position + 1} both fill ${path}`, { hint: 'remove or rename one of the two columns' }));
      return;
    }
    seen.set(path, position);
    const segments = path.split('.');
    columns.push({ position, path, segments, kind: fieldKindAt(schema, segments) });
  });
  return { plan: { columns, width: headers.length }, issues };
}

type Container = Record<string, unknown> | unknown[];

function assign(container: Container, key: string, value: unknown): void {
  // A header named __proto__ must become an own field, never the object's prototype.
  if (key === '__proto__') Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
  else (container as Record<string, unknown>)[key] = value;
}

function childOf(container: Container, key: string, nextIsIndex: boolean, created: unknown[][]): Container | undefined {
  const existing = Object.hasOwn(container, key) ? (container as Record<string, unknown>)[key] : undefined;
  if (existing === undefined) {
    const child: Container = nextIsIndex ? [] : {};
    if (Array.isArray(child)) created.push(child);
    assign(container, key, child);
    return child;
  }
  return typeof existing === 'object' && existing !== null ? (existing as Container) : undefined;
}

const isIndex = (segment: string) => /^\d+$/.test(segment);

/** One CSV row as a nested record: dotted headers nest, number segments index arrays, empty cells are absent. */
export function rowToRecord(plan: CsvPlan, cells: readonly string[]): { value: Record<string, unknown>; issues: Issue[] } {
  const record: Record<string, unknown> = {};
  const issues: Issue[] = [];
  const arrays: unknown[][] = [];
  if (cells.length !== plan.width) {
    issues.push(error('csv-column-count', '', `the row has ${cells.length} cells but the header has ${plan.width} columns`, {
      hint: 'check for an unquoted comma or a missing cell in this row',
    }));
  }
  for (const column of plan.columns) {
    const text = cells[column.position];
    if (text === undefined || text === '') continue;
    const converted = convertCell(text, column.kind);
    if (!converted.ok) issues.push({ ...converted.issue, path: column.path });
    let container: Container | undefined = record;
    const last = column.segments.length - 1;
    for (let i = 0; i < last && container; i++) {
      container = childOf(container, column.segments[i]!, isIndex(column.segments[i + 1]!), arrays);
    }
    if (!container || Object.hasOwn(container, column.segments[last]!)) {
      issues.push(error('csv-header-conflict', column.path, `the column ${column.path} conflicts with another column that fills the same field`, { hint: 'keep either the whole field or its dotted parts, not both' }));
      continue;
    }
    assign(container, column.segments[last]!, converted.ok ? converted.value : text);
  }
  for (const array of arrays) {
    if (Object.keys(array).length !== array.length) {
      issues.push(error('sparse-array', '', 'numbered columns skip a position (for example payments.1.* filled while payments.0.* is empty)', { hint: 'fill numbered columns from 0 without gaps' }));
      break;
    }
  }
  return { value: record, issues };
}
