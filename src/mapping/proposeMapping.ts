import type * as z from 'zod';
import { arrayElement, isFreeForm, objectShape, unwrap } from '../schema/introspect.js';
import { closest } from '../core/suggest.js';
import { compilePattern } from './datetimePattern.js';
import { readNumber } from './readCell.js';
import type { Resource } from '../resources/resource.js';

type AnySchema = z.core.$ZodType;

/** One export file as `map init` sees it: its name, header and the first rows. */
export interface SampledFile {
  file: string;
  header: readonly string[];
  rows: readonly (readonly string[])[];
}

/** Patterns tried, in order, on a column's sample cells; the first that reads them all is proposed. */
const PATTERNS = [
  'iso',
  'yyyy-MM-dd HH:mm:ss',
  'yyyy-MM-dd HH:mm',
  'yyyy-MM-dd',
  'M/d/yyyy H:mm:ss',
  'M/d/yyyy H:mm',
  'M/d/yyyy h:mm a',
  'dd/MM/yyyy HH:mm:ss',
  'dd/MM/yyyy HH:mm',
  'd/M/yyyy H:mm',
  'M/d/yyyy',
  'dd/MM/yyyy',
  'dd.MM.yyyy HH:mm',
];
const ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})$/i;

const fold = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Every leaf field of a schema as a dot path; lists and free-form objects are leaves too. */
function leafPaths(schema: AnySchema, prefix = '', depth = 0): { path: string; schema: AnySchema }[] {
  const shape = objectShape(schema);
  if (!shape || depth > 3) return [{ path: prefix, schema }];
  return Object.entries(shape).flatMap(([key, child]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isFreeForm(child) || arrayElement(child)) return [{ path, schema: child }];
    return objectShape(child) ? leafPaths(child, path, depth + 1) : [{ path, schema: child }];
  });
}

function enumValues(schema: AnySchema): string[] | undefined {
  const def = unwrap(schema)._zod.def as unknown as { type: string; entries?: Record<string, string> };
  return def.type === 'enum' && def.entries ? Object.values(def.entries) : undefined;
}

function typeOf(schema: AnySchema): string {
  return (unwrap(schema)._zod.def as unknown as { type: string }).type;
}

/** The field a column most likely fills: its whole path, the endpoint's id for `<endpoint>_id`, or a unique leaf name. */
function matchColumn(
  column: string,
  endpoint: Target,
  leaves: readonly { path: string }[],
  taken: Set<string>,
): string | undefined {
  for (const variant of variants(column, endpoint.name)) {
    const path = matchName(variant, endpoint, leaves, taken);
    if (path) return path;
  }
  return undefined;
}

/** A column's name as exports write it, then without the entity prefix (`order_status`), with customer as user. */
function variants(column: string, endpoint: string): string[] {
  const snake = column
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '_');
  const names = [
    column,
    snake.replace(new RegExp(`^(order|${endpoint})_`), ''),
    snake.replace(/^(customer|buyer|client)_/, 'user.'),
  ];
  return [...new Set(names)];
}

function matchName(
  column: string,
  endpoint: Target,
  leaves: readonly { path: string }[],
  taken: Set<string>,
): string | undefined {
  const folded = fold(column);
  const has = (path: string) => leaves.some((leaf) => leaf.path === path);
  const candidates = [
    leaves.find((leaf) => fold(leaf.path) === folded)?.path,
    // `order_id` names the field of the record's order; `<endpoint>_id` its own id.
    folded === 'orderid' && has(endpoint.orderField) ? endpoint.orderField : undefined,
    folded === `${fold(endpoint.name)}id` && has('id') ? 'id' : undefined,
    (() => {
      const byLeaf = leaves.filter((leaf) => fold(leaf.path.split('.').pop()!) === folded);
      return byLeaf.length === 1 ? byLeaf[0]!.path : undefined;
    })(),
  ];
  return candidates.find((path) => path !== undefined && !taken.has(path));
}

function guessDatetime(cells: readonly string[]): string | undefined {
  if (cells.length === 0) return undefined;
  for (const pattern of PATTERNS) {
    if (pattern === 'iso') {
      if (cells.every((cell) => ISO.test(cell.trim()))) return 'iso';
      continue;
    }
    const parse = compilePattern(pattern);
    if (typeof parse !== 'string' && cells.every((cell) => parse(cell) !== undefined)) return pattern;
  }
  return undefined;
}

function guessNumber(cells: readonly string[]): 'decimal-comma' | 'decimal-point' | undefined {
  if (cells.length === 0 || cells.every((cell) => /^-?\d+(\.\d+)?$/.test(cell.trim()))) return undefined;
  if (
    cells.every((cell) => readNumber(cell, 'decimal-comma') !== undefined) &&
    cells.some((cell) => /,\d{1,2}\s*$/.test(cell))
  )
    return 'decimal-comma';
  return cells.every((cell) => readNumber(cell, 'decimal-point') !== undefined) ? 'decimal-point' : undefined;
}

const quote = (text: string) =>
  /^[\w./-]+$/.test(text) && !/^(true|false|null|yes|no|on|off|~|[\d.]+)$/i.test(text)
    ? text
    : JSON.stringify(text);

/**
 * A first mapping for an export, to be edited: columns matched to fields by name, datetime
 * patterns and number styles guessed from sample cells, enum columns listed with their distinct
 * values next to the allowed ones. Nothing proposed here is ever guessed at run time.
 */
/** The endpoint a mapping is proposed for: its name, body schema and the field naming its order. */
type Target = Pick<Resource, 'name' | 'orderField'> & { schema: AnySchema };

export function proposeMapping(files: readonly SampledFile[], endpoint: Target, zone = 'UTC'): string {
  const leaves = leafPaths(endpoint.schema);
  const out = [
    '# A first mapping proposed by `collect map init`: check every line, then run with --dry-run.',
    'version: 1',
    `zone: ${quote(zone)}                 # the export's local time zone (IANA): set it`,
    'records:',
  ];
  for (const sample of files) {
    out.push(`  - endpoint: ${endpoint.name}`, `    from: ${quote(sample.file)}`, '    fields:');
    const taken = new Set<string>();
    const unmatched: string[] = [];
    sample.header.forEach((column, position) => {
      const cells = sample.rows.map((row) => row[position] ?? '').filter((cell) => cell.trim() !== '');
      const creation =
        !taken.has('creation_datetime') &&
        leaves.some((l) => l.path === 'creation_datetime') &&
        /purchase|creat|placed|order_?date/i.test(column) &&
        guessDatetime(cells)
          ? 'creation_datetime'
          : undefined;
      const path = matchColumn(column, endpoint, leaves, taken) ?? creation;
      const leaf = path === undefined ? undefined : leaves.find((l) => l.path === path);
      if (!path || !leaf) {
        unmatched.push(column);
        return;
      }
      taken.add(path);
      const type = typeOf(leaf.schema);
      const allowed = enumValues(leaf.schema);
      if (path.endsWith('datetime')) {
        const pattern = guessDatetime(cells);
        out.push(
          `      ${path}: { column: ${quote(column)}, datetime: ${quote(pattern ?? 'yyyy-MM-dd HH:mm:ss')} }${pattern ? '' : '   # no pattern read every sample cell: fix it'}`,
        );
      } else if (type === 'number') {
        const style = guessNumber(cells);
        out.push(
          style
            ? `      ${path}: { column: ${quote(column)}, number: ${style} }`
            : `      ${path}: ${quote(column)}`,
        );
      } else if (allowed) {
        const distinct = [...new Set(cells.map((cell) => cell.trim().toLowerCase()))].slice(0, 20);
        const unknown = distinct.filter((value) => !allowed.includes(value));
        // A value with no close allowed one gets "?": the dry run then flags it, nothing is guessed silently.
        const values = unknown
          .map((value) => `${quote(value)}: ${quote(closest(value, allowed) ?? '?')}`)
          .join(', ');
        out.push(
          unknown.length === 0
            ? `      ${path}: ${quote(column)}`
            : `      ${path}: { column: ${quote(column)}, values: { ${values} } }   # map each to one of: ${allowed.join(', ')}`,
        );
      } else {
        out.push(`      ${path}: ${quote(column)}`);
      }
    });
    for (const column of unmatched) {
      const cells = sample.rows
        .map((row) => row[sample.header.indexOf(column)] ?? '')
        .filter((cell) => cell.trim() !== '');
      const pattern = guessDatetime(cells);
      out.push(
        `      # ?: ${quote(column)}   # not matched${cells[0] ? `; e.g. ${JSON.stringify(cells[0])}` : ''}${pattern ? `; reads as datetime "${pattern}"` : ''}`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}
