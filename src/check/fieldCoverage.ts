import { isRecord } from '../schema/checks.js';

/** A field the service's models use, and whether a record carries it (a non-empty value). */
export interface CoverageField {
  /** As the report shows it: the field's path, lists as `[]`. */
  path: string;
  /** What it is, in a few words. */
  label: string;
  has: (record: Record<string, unknown>) => boolean;
}

const present = (value: unknown): boolean =>
  value !== undefined &&
  value !== null &&
  value !== '' &&
  !(Array.isArray(value) && value.length === 0) &&
  !(isRecord(value) && Object.keys(value).length === 0);

/** The value at a dotted path of objects. */
function at(record: unknown, path: readonly string[]): unknown {
  let value = record;
  for (const key of path) {
    if (!isRecord(value)) return undefined;
    value = value[key];
  }
  return value;
}

/** A field carried by the record itself (`user.document`). */
const field = (path: string, label: string): CoverageField => {
  const keys = path.split('.');
  return { path, label, has: (record) => present(at(record, keys)) };
};

/** A field carried by at least one element of a list (`payments[].card.first_six_digits`). */
const inList = (list: string, path: string, label: string): CoverageField => {
  const keys = path.split('.');
  return {
    path: `${list}[].${path}`,
    label,
    has: (record) => {
      const items = record[list];
      return Array.isArray(items) && items.some((item) => present(at(item, keys)));
    },
  };
};

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

/** The fields of `endpoint`'s list that `record` carries, as a bit mask (bit i: coverageFields[endpoint][i]). */
export function coverageOf(endpoint: string, record: Record<string, unknown>): number {
  const fields = coverageFields[endpoint];
  if (!fields) return 0;
  let mask = 0;
  for (let i = 0; i < fields.length; i++) if (fields[i]!.has(record)) mask |= 1 << i;
  return mask;
}
