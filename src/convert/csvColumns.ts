import type * as z from 'zod';
import { error, warning, type Issue } from '../core/issue.js';
import { fieldKindAt } from '../schema/introspect.js';
import type { CsvColumn, RowBuilder } from './csvColumn.js';
import { convertCell } from './cells.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import { unknownFields } from '../schema/unknownFields.js';
import { columnCountIssue, conflictIssue, hasHoles, sparseIssue } from './rowIssues.js';

export type { CsvColumn, RowBuilder } from './csvColumn.js';

export interface CsvPlan {
  columns: CsvColumn[];
  width: number;
  /** Builds one row's record: compiled for the usual header, generic otherwise. */
  build: RowBuilder;
}

/**
 * Works out once per file what every column fills and how its cells convert,
 * so that each row is only a loop over cells.
 */
export function planCsvColumns(
  headers: readonly string[],
  schema: z.core.$ZodType,
  /** A compiled builder for the columns (fast/compiledRowBuilder.ts), handed in; undefined: the generic one. */
  compile?: (columns: readonly CsvColumn[], width: number) => RowBuilder | undefined,
): { plan: CsvPlan; issues: Issue[] } {
  const issues: Issue[] = [];
  const seen = new Map<string, number>();
  const columns: CsvColumn[] = [];
  const unnamed: number[] = [];
  headers.forEach((header, position) => {
    const path = header.trim();
    if (path === REASON_FIELD) return; // the reasons column of a rejects file fed back
    if (path === '') {
      unnamed.push(position + 1);
      return;
    }
    const earlier = seen.get(path);
    if (earlier !== undefined) {
      issues.push(
        error('duplicate-header', path, `columns ${earlier + 1} and ${position + 1} both fill ${path}`, {
          hint: 'remove or rename one of the two columns',
        }),
      );
      return;
    }
    seen.set(path, position);
    const segments = path.split('.');
    const indexNext = segments.slice(1).map((segment) => /^\d+$/.test(segment));
    columns.push({ position, path, segments, indexNext, kind: fieldKindAt(schema, segments) });
  });
  if (unnamed.length > 0) issues.push(emptyHeaders(unnamed));
  // Columns in field order at every level: the records they build have sorted keys, which makes hashing them cheap.
  columns.sort(compareFieldPaths);
  const width = headers.length;
  const build =
    compile?.(columns, width) ?? ((cells: readonly string[]) => buildRowGeneric(columns, width, cells));
  return { plan: { columns, width, build }, issues: [...issues, ...unknownColumns(schema, columns, width)] };
}

/**
 * Columns the schema does not know, reported once for the header rather than once per row;
 * the records of the file then need no unknown-field walk of their own.
 */
function unknownColumns(schema: z.core.$ZodType, columns: readonly CsvColumn[], width: number): Issue[] {
  const sample = buildRowGeneric(
    columns,
    width,
    Array.from({ length: width }, () => 'x'),
  ).value;
  // In header order: the first unknown columns named are the first the user sees in the file.
  const positions = new Map(columns.map((column) => [column.path, column.position]));
  const unknown = unknownFields(schema, sample).sort(
    (a, b) => (positions.get(a.path) ?? Infinity) - (positions.get(b.path) ?? Infinity),
  );
  if (unknown.length > UNKNOWN_COLUMNS_NAMED) {
    // Many unknown columns are one finding about the file (the wrong export?), not a list to scroll through.
    const named = unknown
      .slice(0, UNKNOWN_COLUMNS_NAMED)
      .map((issue) => issue.path)
      .join(', ');
    return [
      warning(
        'unknown-field',
        '',
        `${unknown.length.toLocaleString('en-US')} columns are not fields the service knows (` +
          `${named} and ${(unknown.length - UNKNOWN_COLUMNS_NAMED).toLocaleString('en-US')} more); ` +
          `their cells are sent as they are`,
        {
          hint: 'check that this is the export for this endpoint; compare its header with `collect template`',
        },
      ),
    ];
  }
  return unknown.map((issue) => ({
    ...issue,
    message: `the column ${issue.path} is not a field the service knows; its cells are sent as they are`,
  }));
}

/** Columns without a header: one warning for the file, naming the first few. */
function emptyHeaders(positions: readonly number[]): Issue {
  const named = positions.slice(0, UNKNOWN_COLUMNS_NAMED).join(', ');
  const more =
    positions.length > UNKNOWN_COLUMNS_NAMED
      ? ` and ${(positions.length - UNKNOWN_COLUMNS_NAMED).toLocaleString('en-US')} more`
      : '';
  const message =
    positions.length === 1
      ? `column ${named} has no header; its cells are ignored`
      : `columns ${named}${more} have no header; their cells are ignored`;
  return warning('empty-header', '', message, { hint: 'name the columns or remove them' });
}

/** Up to this many unknown columns are reported one by one (each with its likely spelling). */
const UNKNOWN_COLUMNS_NAMED = 5;

function compareFieldPaths(a: CsvColumn, b: CsvColumn): number {
  const length = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < length; i++) {
    if (a.segments[i] !== b.segments[i]) return a.segments[i]! < b.segments[i]! ? -1 : 1;
  }
  return a.segments.length - b.segments.length;
}

type Container = Record<string, unknown> | unknown[];

function assign(container: Container, key: string, value: unknown): void {
  // A header named __proto__ must become an own field, never the object's prototype.
  if (key === '__proto__')
    Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
  else (container as Record<string, unknown>)[key] = value;
}

function childOf(
  container: Container,
  key: string,
  nextIsIndex: boolean,
  created: unknown[][],
): Container | undefined {
  const existing = Object.hasOwn(container, key) ? (container as Record<string, unknown>)[key] : undefined;
  if (existing === undefined) {
    const child: Container = nextIsIndex ? [] : {};
    if (Array.isArray(child)) created.push(child);
    assign(container, key, child);
    return child;
  }
  return typeof existing === 'object' && existing !== null ? (existing as Container) : undefined;
}

/** One CSV row as a nested record: dotted headers nest, number segments index arrays, empty cells are absent. */
export function rowToRecord(
  plan: CsvPlan,
  cells: readonly string[],
): { value: Record<string, unknown>; issues: Issue[] } {
  return plan.build(cells);
}

/** The reference builder: handles every header, including conflicting and __proto__ columns. */
export function buildRowGeneric(
  columns: readonly CsvColumn[],
  width: number,
  cells: readonly string[],
): { value: Record<string, unknown>; issues: Issue[] } {
  const record: Record<string, unknown> = {};
  const issues: Issue[] = [];
  const arrays: unknown[][] = [];
  if (cells.length !== width) issues.push(columnCountIssue(cells.length, width));
  for (const column of columns) {
    const text = cells[column.position];
    if (text === undefined || text === '') continue;
    const converted = convertCell(text, column.kind);
    if (!converted.ok) issues.push({ ...converted.issue, path: column.path });
    let container: Container | undefined = record;
    const last = column.segments.length - 1;
    for (let i = 0; i < last && container; i++) {
      container = childOf(container, column.segments[i]!, column.indexNext[i]!, arrays);
    }
    if (!container || Object.hasOwn(container, column.segments[last]!)) {
      issues.push(conflictIssue(column.path));
      continue;
    }
    assign(container, column.segments[last]!, converted.ok ? converted.value : text);
  }
  if (arrays.some(hasHoles)) issues.push(sparseIssue());
  return { value: record, issues };
}
