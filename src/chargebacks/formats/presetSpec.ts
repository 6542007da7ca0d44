import { headerKey, typeKey } from './foldText.js';

/** The stages of A.0.4 that carry no chargeback: a `not-chargeback` row's `kind`. */
export const kinds = [
  'rfi',
  'second-presentment',
  'reversal',
  'pre-arbitration',
  'adjustment',
  'prevented',
  'claim',
] as const;
export type Kind = (typeof kinds)[number];
/** What a row is (A.0.4), as a preset's `types:` names it. */
export type RowClass = 'chargeback' | 'fraud-notice' | Kind;
const classes: readonly string[] = ['chargeback', 'fraud-notice', ...kinds];

/** Where a field's value comes from: the first non-empty of its columns (or JSON/XML paths), converted. */
export interface FieldSource {
  columns: string[];
  value?: string | number;
  /** Minor units: `currency` divides by the currency's exponent, a number by that power of ten. */
  minorUnits?: 'currency' | number;
  lastFour?: boolean;
  unixSeconds?: boolean;
  /** `first`: the cell's first word; `rest`: the words after it (PPRO's `MD06 RefundRequestByEndCustomer`). */
  word?: 'first' | 'rest';
  values?: ReadonlyMap<string, string>;
  /** The date patterns of the column (luxon's tokens), tried in order (A.0.5). */
  date?: string[];
  /** The columns naming a local date-time's zone, one per date column (Adyen's `Record Date TimeZone`). */
  zoneColumns?: string[];
  /** A zero-padded numeric id of this width: a shorter all-digit value lost its zeros (mangled). */
  width?: number;
}

export interface TypeRule {
  /** The first non-empty of these columns holds the type. */
  columns: string[];
  values: ReadonlyMap<string, RowClass>;
  /** The type by words it contains, in order (CyberSource): tried when `values` has none. */
  words: readonly (readonly [string, RowClass])[];
  /** When the type columns are empty: the first of these columns that is filled decides. */
  empty: readonly (readonly [string, RowClass])[];
  /** The class when the type columns are empty and no `empty` column is filled (else unknown-row-type). */
  otherwise?: RowClass;
  /** Every row has this class (Stripe's early fraud warnings). */
  always?: RowClass;
}

export interface Preset {
  name: string;
  about: string;
  /** The file that defines it (shown by --formats). */
  file: string;
  reads: 'csv' | 'json' | 'xml';
  /** CSV: header cells (folded); JSON: keys every item has; XML: the root element. */
  signature: string[];
  /** The signature as the preset's file writes it (for --formats and messages). */
  written: string[];
  /** JSON: the keys that may hold the list; XML: the row element. */
  lists: string[];
  /** JSON: key and value every item holds (`object: dispute`). */
  shape: ReadonlyMap<string, string>;
  /** JSON: an item without this path is structure (Asaas' payments without a chargeback). */
  require?: string;
  /** CSV: a line whose first cell is `Key=Value` is structure (J.P. Morgan's footer). */
  keyValueFooter: boolean;
  /**
   * CSV: the first cell is a row type (PayPal): `rows` are rows, `structure` is structure, `count` holds the
   * row count.
   */
  firstCell?: { rows: string[]; structure: string[]; count?: string };
  types?: TypeRule;
  fields: ReadonlyMap<string, FieldSource>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): string[] =>
  v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => String(x as string));

function rowClass(value: unknown, where: string): RowClass {
  const text = String(value as string);
  if (!classes.includes(text)) throw new Error(`${where}: "${text}" is not one of ${classes.join(', ')}`);
  return text as RowClass;
}

function fieldSource(spec: unknown, field: string): FieldSource {
  if (typeof spec === 'string' || Array.isArray(spec)) return { columns: list(spec) };
  if (!isObj(spec)) throw new Error(`fields.${field}: a column, a list of columns, or { column: ... }`);
  const source: FieldSource = { columns: list(spec.column ?? spec.columns) };
  if (spec.value !== undefined) source.value = spec.value as string | number;
  const minor = spec['minor-units'];
  if (minor === true) source.minorUnits = 'currency';
  else if (typeof minor === 'number') source.minorUnits = minor;
  if (spec['last-four'] === true) source.lastFour = true;
  if (spec['unix-seconds'] === true) source.unixSeconds = true;
  if (spec.word === 'first' || spec.word === 'rest') source.word = spec.word;
  if (typeof spec.width === 'number') source.width = spec.width;
  if (spec.date !== undefined) source.date = list(spec.date);
  if (spec['zone-column'] !== undefined) source.zoneColumns = list(spec['zone-column']);
  if (isObj(spec.values))
    source.values = new Map(Object.entries(spec.values).map(([k, v]) => [typeKey(k), String(v as string)]));
  if (source.columns.length === 0 && source.value === undefined)
    throw new Error(`fields.${field}: names no column and no value`);
  return source;
}

function typeRule(spec: unknown): TypeRule {
  if (!isObj(spec)) throw new Error('types: { column: ..., values: { VALUE: class } }');
  const entries = (v: unknown, where: string) =>
    isObj(v) ? Object.entries(v).map(([k, c]) => [k, rowClass(c, `${where}.${k}`)] as const) : [];
  return {
    columns: list(spec.column ?? spec.columns),
    values: new Map(entries(spec.values, 'types.values').map(([k, c]) => [typeKey(k), c])),
    words: entries(spec.words, 'types.words').map(([k, c]) => [k.toLowerCase(), c] as const),
    empty: entries(spec.empty, 'types.empty'),
    ...(spec.otherwise === undefined ? {} : { otherwise: rowClass(spec.otherwise, 'types.otherwise') }),
    ...(spec.always === undefined ? {} : { always: rowClass(spec.always, 'types.always') }),
  };
}

/**
 * A preset from its file's parsed YAML (an `endpoint: chargeback` entry with `format:` and `recognise:`); a
 * mistake throws its place.
 */
export function parsePreset(document: unknown, file: string): Preset {
  const entry =
    isObj(document) && Array.isArray(document.records) ? (document.records[0] as unknown) : undefined;
  if (!isObj(entry) || entry.endpoint !== 'chargeback')
    throw new Error('a preset is a mapping with one `records:` entry of `endpoint: chargeback`');
  const recognise = entry.recognise;
  if (!isObj(recognise)) throw new Error('recognise: { csv: [columns] }, { json: [keys] } or { xml: root }');
  const reads = recognise.csv !== undefined ? 'csv' : recognise.json !== undefined ? 'json' : 'xml';
  const structure = isObj(entry.structure) ? entry.structure : {};
  const first = structure['first-cell'];
  if (!isObj(entry.fields)) throw new Error('fields: { field: column }');
  const fields = new Map(Object.entries(entry.fields).map(([f, s]) => [f, fieldSource(s, f)] as const));
  const signature = list(recognise[reads]);
  return {
    name: String((entry.format as string | undefined) ?? file),
    about: String((entry.about as string | undefined) ?? ''),
    file,
    reads,
    signature: reads === 'csv' ? signature.map(headerKey) : signature,
    written: signature,
    lists: list(recognise.list ?? recognise.row),
    shape: new Map(
      Object.entries(isObj(recognise.shape) ? recognise.shape : {}).map(([k, v]) => [k, String(v)]),
    ),
    ...(typeof structure.require === 'string' ? { require: structure.require } : {}),
    keyValueFooter: structure.footer === 'key-value',
    ...(isObj(first)
      ? {
          firstCell: {
            rows: list(first.rows),
            structure: list(first.structure),
            ...(typeof first.count === 'string' ? { count: first.count } : {}),
          },
        }
      : {}),
    ...(entry.types === undefined ? {} : { types: typeRule(entry.types) }),
    fields,
  };
}
