import { isRecord } from '../schema/checks.js';

/** A field the service's models use: where it is (`user.document`, `payments[].acquirer_id`). */
export interface CoverageField {
  /** As the report shows it: the field's path, lists as `[]`. */
  path: string;
  /** What it is, in a few words. */
  label: string;
}

/** A non-empty value: not absent, null, '', [] or {}. */
function present(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.length > 0;
  for (const _ in value) return true;
  return false;
}

const field = (path: string, label: string): CoverageField => ({ path, label });
const inList = (list: string, path: string, label: string): CoverageField => ({
  path: `${list}[].${path}`,
  label,
});

/** Per endpoint, the fields whose presence the fraud models depend on (docs/payloads.md); at most 31 each (a bit mask). */
export const coverageFields: Readonly<Record<string, readonly CoverageField[]>> = {
  order: [
    field('user.document', "customer's document"),
    field('user.email', "customer's email"),
    field('user.phone_number', "customer's phone"),
    field('user.address', "customer's address"),
    field('user.creation_datetime', 'customer since'),
    field('total_paid_value', 'total paid'),
    field('creation_datetime', 'order time'),
    field('items', 'items'),
    inList('items', 'product.seller', "items' seller"),
    field('payments', 'payments'),
    inList('payments', 'card.first_six_digits', 'card BIN'),
    inList('payments', 'card.last_four_digits', 'card last digits'),
    inList('payments', 'card.holder_name', 'card holder'),
    inList('payments', 'acquirer_id', 'acquirer id'),
    field('deliveries', 'deliveries'),
    inList('deliveries', 'deliverer', 'deliverer'),
  ],
  status: [field('status_reason', 'status reason')],
  fraud: [field('fraud_comment', 'comment')],
  payment: [field('acquirer_id', 'acquirer id')],
  delivery: [field('delivery_datetime', 'delivery time'), field('deliverer', 'deliverer')],
};

/** The fields under one top-level key, so a record's key is read once and a list walked once. */
interface KeyGroup {
  key: string;
  /** The bit of the key itself, 0 when it is not a field of the list. */
  self: number;
  nested: { keys: string[]; bit: number }[];
  /** Fields of the list's elements, and all their bits. */
  elements: { keys: string[]; bit: number }[];
  elementBits: number;
}

function compile(fields: readonly CoverageField[]): KeyGroup[] {
  const groups = new Map<string, KeyGroup>();
  fields.forEach(({ path }, i) => {
    const bit = 1 << i;
    const [head, rest] = path.includes('[].') ? path.split('[].') : [path.split('.')[0]!, undefined];
    const key = head!.split('.')[0]!;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, self: 0, nested: [], elements: [], elementBits: 0 }));
    if (rest !== undefined) {
      group.elements.push({ keys: rest.split('.'), bit });
      group.elementBits |= bit;
    } else if (path === key) group.self |= bit;
    else group.nested.push({ keys: path.split('.').slice(1), bit });
  });
  return [...groups.values()];
}

/** `value` read along `keys` with literal property names (names from coverageFields, never from input). */
const access = (value: string, keys: readonly string[]) =>
  keys
    .map((key) => `[${JSON.stringify(key)}]`)
    .reduce((path, key) => `(isRecord(${path}) ? ${path}${key} : undefined)`, value);

/**
 * The mask of one endpoint as a function with literal property names: a generic walk's keyed
 * loads with varying keys are megamorphic and cost about a microsecond a record (1M records: 1 s).
 */
function compileMask(fields: readonly CoverageField[]): (record: Record<string, unknown>) => number {
  const code = ['let m = 0, v, e;'];
  for (const group of compile(fields)) {
    code.push(`v = r[${JSON.stringify(group.key)}];`, 'if (v !== undefined && v !== null) {');
    if (group.self !== 0) code.push(`  if (present(v)) m |= ${group.self};`);
    for (const { keys, bit } of group.nested) code.push(`  if (present(${access('v', keys)})) m |= ${bit};`);
    if (group.elementBits !== 0) {
      code.push('  if (Array.isArray(v)) for (e of v) {');
      for (const { keys, bit } of group.elements)
        code.push(`    if ((m & ${bit}) === 0 && present(${access('e', keys)})) m |= ${bit};`);
      code.push(`    if ((m & ${group.elementBits}) === ${group.elementBits}) break;`, '  }');
    }
    code.push('}');
  }
  code.push('return m;');
  return new Function('present', 'isRecord', `return (r) => {\n${code.join('\n')}\n};`)(
    present,
    isRecord,
  ) as (record: Record<string, unknown>) => number;
}

const compiled = new Map(
  Object.entries(coverageFields).map(([endpoint, fields]) => [endpoint, compileMask(fields)]),
);

/** The fields of `endpoint`'s list that `record` carries, as a bit mask (bit i: coverageFields[endpoint][i]). */
// Every record of every run goes through it: each top-level key read once, each list walked once at most.
export function coverageOf(endpoint: string, record: Record<string, unknown>): number {
  return compiled.get(endpoint)?.(record) ?? 0;
}
