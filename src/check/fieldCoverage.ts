import { compiledCoverage } from '../fast/compiledCoverage.js';
import { fastPaths } from '../fast/fastPaths.js';
import { isRecord } from '../schema/checks.js';

/** A field the service's models use: where it is (`user.document`, `payments[].acquirer_id`). */
export interface CoverageField {
  /** As the report shows it: the field's path, lists as `[]`. */
  path: string;
  /** What it is, in a few words. */
  label: string;
}

/** A non-empty value: not absent, null, '', [] or {}. */
export function present(value: unknown): boolean {
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

const compiled = new Map(
  Object.entries(coverageFields).map(([endpoint, fields]) => [
    endpoint,
    compiledCoverage(fields, present, isRecord),
  ]),
);

/** `value` read along a dotted path; undefined where a step is not an object. */
function at(value: unknown, keys: readonly string[]): unknown {
  for (const key of keys) value = isRecord(value) ? value[key] : undefined;
  return value;
}

/** The plain twin of the compiled mask (COLLECT_FAST_PATHS=0): each field's path walked as written. */
export function plainCoverageOf(endpoint: string, record: Record<string, unknown>): number {
  let mask = 0;
  (coverageFields[endpoint] ?? []).forEach(({ path }, i) => {
    const [list, rest] = path.split('[].');
    const carried =
      rest === undefined
        ? present(at(record, path.split('.')))
        : [at(record, list!.split('.'))].some(
            (v) => Array.isArray(v) && v.some((element) => present(at(element, rest.split('.')))),
          );
    if (carried) mask |= 1 << i;
  });
  return mask;
}

/** The fields of `endpoint`'s list that `record` carries, as a bit mask (bit i: coverageFields[endpoint][i]). */
// Every record of every run goes through it: each top-level key read once, each list walked once at most.
export function coverageOf(endpoint: string, record: Record<string, unknown>): number {
  if (!fastPaths) return plainCoverageOf(endpoint, record);
  return compiled.get(endpoint)?.(record) ?? 0;
}
