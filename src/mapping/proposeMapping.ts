import type * as z from 'zod';
import { arrayElement, isFreeForm, objectShape, unwrap } from '../schema/introspect.js';
import { closest } from '../core/suggest.js';
import { cellsOf, fold, guessDatetime, guessNumber, quote, type SampledFile } from './proposeCells.js';
import type { Resource } from '../resources/resource.js';
import { DEFAULT_DIALECT, type CsvDialect } from './exportDialect.js';
import { identifierCells, perItemShape, type PerItemShape } from './exportShape.js';
import { entryText } from './proposalText.js';
import { ordersEntries, ordersKey } from './proposeOrders.js';
import { proposeZone } from './proposeZone.js';

export type { SampledFile } from './proposeCells.js';

type AnySchema = z.core.$ZodType;

/**
 * Names exports give the service's fields, folded (lower case, letters and digits): Shopify's, WooCommerce's,
 * VTEX's.
 */
const ORDER_NAMES: Record<string, string> = {
  total: 'total_paid_value',
  totalprice: 'total_paid_value',
  ordertotal: 'total_paid_value',
  grandtotal: 'total_paid_value',
  totalpaid: 'total_paid_value',
  shipping: 'shipping_value',
  shippingcost: 'shipping_value',
  shippingtotal: 'shipping_value',
  shippingprice: 'shipping_value',
  freight: 'shipping_value',
  discount: 'discount_value',
  discountamount: 'discount_value',
  discounttotal: 'discount_value',
  totaldiscount: 'discount_value',
  totaldiscounts: 'discount_value',
  tip: 'tip_value',
  tips: 'tip_value',
  discountcode: 'coupon_names',
  discountcodes: 'coupon_names',
  coupon: 'coupon_names',
  couponcode: 'coupon_names',
  billingname: 'user.name',
  customername: 'user.name',
  ordernumber: 'id',
  orderno: 'id',
  ordername: 'id',
};

/** An item column's name without its `Lineitem ` prefix, folded: the item field it fills. */
const ITEM_NAMES: Record<string, string> = {
  quantity: 'quantity',
  qty: 'quantity',
  price: 'unit_price',
  unitprice: 'unit_price',
  sku: 'product.sku',
  name: 'product.title',
  title: 'product.title',
  productname: 'product.title',
  productid: 'product.product_id',
  ean: 'product.ean',
  vendor: 'product.seller.name',
};
const ITEM_PREFIX = /^(line\s*items?|items?|products?)[\s_:.-]*/i;

/** Fields of a person's or a company's name: an identifier (`#1001`) never fills one. */
const PERSON_NAME = /(^|\.)(name|holder_name)$/;

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

/**
 * The field a column most likely fills: its whole path, the endpoint's id for `<endpoint>_id`, or a unique
 * leaf name.
 */
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

/** The endpoint a mapping is proposed for: its name, body schema and the field naming its order. */
type Target = Pick<Resource, 'name' | 'orderField'> & { schema: AnySchema };

type Leaf = { path: string; schema: AnySchema };

/** The line proposing a column for a field: its converter guessed from the cells. */
function fieldLine(
  indent: string,
  path: string,
  leaf: Leaf,
  column: string,
  cells: readonly string[],
): string {
  const type = typeOf(leaf.schema);
  const allowed = enumValues(leaf.schema);
  if (path.endsWith('datetime')) {
    const pattern = guessDatetime(cells);
    // iso reads any offset or Z (`2025-05-11 09:55:16 -0400`): a pattern would take the cell as local time.
    return (
      `${indent}${path}: { column: ${quote(column)}, datetime: ` +
      `${quote(pattern ?? 'yyyy-MM-dd HH:mm:ss')} }` +
      `${pattern ? '' : '   # no pattern read every sample cell: fix it'}`
    );
  }
  if (type === 'number') {
    const style = guessNumber(cells);
    return style
      ? `${indent}${path}: { column: ${quote(column)}, number: ${style} }`
      : `${indent}${path}: ${quote(column)}`;
  }
  if (type === 'array' && !arrayElement(leaf.schema)?._zod.def.type.startsWith('object'))
    return `${indent}${path}: { column: ${quote(column)}, split: "," }`;
  if (allowed) {
    const distinct = [...new Set(cells.map((cell) => cell.trim().toLowerCase()))].slice(0, 20);
    const unknown = distinct.filter((value) => !allowed.includes(value));
    // A value with no close allowed one gets "?": the dry run then flags it, nothing is guessed silently.
    const values = unknown
      .map((value) => `${quote(value)}: ${quote(closest(value, allowed) ?? '?')}`)
      .join(', ');
    return unknown.length === 0
      ? `${indent}${path}: ${quote(column)}`
      : `${indent}${path}: { column: ${quote(column)}, values: { ${values} } }   # map each to one ` +
          `of: ${allowed.join(', ')}`;
  }
  return `${indent}${path}: ${quote(column)}`;
}

/** The field each column fills (undefined: none found), an identifier never a person's name, an order number the id. */
function matchColumns(
  sample: SampledFile,
  columns: readonly number[],
  endpoint: Target,
  leaves: readonly Leaf[],
  names: Record<string, string>,
  strip?: RegExp,
): Map<number, string> {
  const taken = new Set<string>();
  const matched = new Map<number, string>();
  const has = (path: string) => leaves.some((leaf) => leaf.path === path);
  for (const position of columns) {
    const column = sample.header[position]!;
    const cells = cellsOf(sample, position);
    const bare = strip ? column.replace(strip, '') : column;
    const named = names[fold(bare)];
    const creation =
      has('creation_datetime') && /purchase|creat|placed|order_?date/i.test(column) && guessDatetime(cells)
        ? 'creation_datetime'
        : undefined;
    const path = [named, matchColumn(bare, endpoint, leaves, taken), creation].find(
      (candidate) =>
        candidate !== undefined &&
        has(candidate) &&
        !taken.has(candidate) &&
        !(PERSON_NAME.test(candidate) && identifierCells(cells)),
    );
    if (path === undefined) continue;
    taken.add(path);
    matched.set(position, path);
  }
  // No id column: an order number (`Name` of `#1001`s, `Order #`) is the order's id.
  if (has('id') && !taken.has('id')) {
    const number = columns.find(
      (position) =>
        !matched.has(position) &&
        /^(name|order|number|ordernumber|orderno|order#|ordername)$/.test(fold(sample.header[position]!)) &&
        identifierCells(cellsOf(sample, position)),
    );
    if (number !== undefined) matched.set(number, 'id');
  }
  return matched;
}

/** Lines for matched columns, then the unmatched ones as comments to fill in. */
function columnLines(
  sample: SampledFile,
  columns: readonly number[],
  matched: ReadonlyMap<number, string>,
  leaves: readonly Leaf[],
  indent: string,
): string[] {
  const out: string[] = [];
  const unmatched: string[] = [];
  for (const position of columns) {
    const path = matched.get(position);
    const column = sample.header[position]!;
    const leaf = path === undefined ? undefined : leaves.find((l) => l.path === path);
    if (path === undefined || !leaf) unmatched.push(column);
    else out.push(fieldLine(indent, path, leaf, column, cellsOf(sample, position)));
  }
  for (const column of unmatched) {
    const cells = cellsOf(sample, sample.header.indexOf(column));
    const pattern = guessDatetime(cells);
    out.push(
      `${indent}# ?: ${quote(column)}   # not matched` +
        `${cells[0] ? `; e.g. ${JSON.stringify(cells[0])}` : ''}` +
        `${pattern ? `; reads as datetime "${pattern}"` : ''}`,
    );
  }
  return out;
}

const dialectText = (dialect: CsvDialect) =>
  `{ delimiter: ${JSON.stringify(dialect.delimiter)}, encoding: ${dialect.encoding} }`;
const isDefault = (dialect: CsvDialect) =>
  dialect.delimiter === DEFAULT_DIALECT.delimiter && dialect.encoding === DEFAULT_DIALECT.encoding;

/**
 * A file's entry by names alone (no orders file among the inputs, or another endpoint), its items by its
 * rows' shape.
 */
function namedEntry(sample: SampledFile, endpoint: Target, csv: string | undefined): string[] {
  const leaves = leafPaths(endpoint.schema);
  const items = objectShape(endpoint.schema)?.items;
  const itemLeaves = items && arrayElement(items) ? leafPaths(arrayElement(items)!) : undefined;
  const out = [`  - endpoint: ${endpoint.name}`, `    from: ${quote(sample.file)}`];
  if (csv) out.push(`    csv: ${csv}`);
  const all = sample.header.map((_, position) => position);
  const first = matchColumns(sample, all, endpoint, leaves, ORDER_NAMES);
  const shape: PerItemShape | undefined = itemLeaves
    ? perItemShape(sample.header.length, sample.rows, (column) => first.get(column) === 'id')
    : undefined;
  if (!shape || !itemLeaves)
    return [...out, '    fields:', ...columnLines(sample, all, first, leaves, '      ')];
  const key = sample.header[shape.key]!;
  const own = all.filter((position) => !shape.itemColumns.has(position));
  const itemColumns = [...shape.itemColumns];
  const matched = matchColumns(sample, own, endpoint, leaves, ORDER_NAMES);
  const itemsMatched = matchColumns(sample, itemColumns, endpoint, itemLeaves, ITEM_NAMES, ITEM_PREFIX);
  return [
    ...out,
    `    when: { column: ${quote(sample.header[shape.firstRow]!)}, present: true }   # one row per ` +
      `item: the order's own columns are on its first row only`,
    '    fields:',
    ...columnLines(sample, own, matched, leaves, '      '),
    '    lists:',
    '      items:',
    `        from: self                 # the order's rows of the same file, by ${quote(key)}`,
    `        key: ${quote(key)}`,
    '        fields:',
    ...columnLines(sample, itemColumns, itemsMatched, itemLeaves, '          '),
  ];
}

/**
 * A first mapping for an export, to be edited. An orders export (source-files.md, part B) gets
 * its known columns as fields, each with its reason, its items, payments, customers, status and
 * delivery; other files get columns matched to fields by name. Datetime patterns, number styles,
 * status words and the files' delimiter and encoding come from the sample cells. Nothing proposed
 * here is ever guessed at run time.
 */
export function proposeMapping(files: readonly SampledFile[], endpoint: Target, zone?: string): string {
  const dialects = files.map((file) => file.dialect ?? DEFAULT_DIALECT);
  const shared = dialects.every((d) => dialectText(d) === dialectText(dialects[0] ?? DEFAULT_DIALECT))
    ? (dialects[0] ?? DEFAULT_DIALECT)
    : undefined;
  const csvOf = (at: number) =>
    !shared && !isDefault(dialects[at]!) ? dialectText(dialects[at]!) : undefined;
  const orders = endpoint.name === 'order' ? files.filter((file) => ordersKey(file) !== undefined) : [];
  const proposed = orders.length > 0 ? proposeZone(files, zone) : undefined;
  const out = [
    '# A first mapping proposed by `collect map init`: check every line, then run with --dry-run.',
    'version: 1',
    proposed
      ? `zone: ${quote(proposed.zone)}   # ${proposed.reason}`
      : `zone: ${quote(zone ?? 'UTC')}                 # the export's local time zone (IANA): set it`,
    ...(shared && !isDefault(shared) ? [`csv: ${dialectText(shared)}   # as the files are written`] : []),
    'records:',
  ];
  if (orders.length === 0) {
    for (const [at, sample] of files.entries()) out.push(...namedEntry(sample, endpoint, csvOf(at)));
    return `${out.join('\n')}\n`;
  }
  const used = new Set<SampledFile>(orders);
  for (const file of orders)
    for (const entry of ordersEntries(file, ordersKey(file)!, files, used)) {
      const csv = csvOf(files.indexOf(file));
      if (
        entry.endpoint === 'order' &&
        proposed?.currency &&
        !entry.fields.some((f) => f.target === 'currency')
      )
        entry.fields.push({
          target: 'currency',
          source: `{ value: ${proposed.currency} }`,
          reason: 'no currency column: proposed from the zone, confirm it',
        });
      out.push(...entryText({ ...entry, ...(csv ? { csv } : {}) }));
    }
  for (const file of files)
    if (!used.has(file))
      out.push(`# not read: ${quote(file.file)}: none of its columns feeds a field of the orders`);
  return `${out.join('\n')}\n`;
}
