/**
 * Every field rule of docs/service.md §2 and docs/payloads.md, written down here from the
 * specification (not read from the schemas), so that removing or loosening a rule fails a test.
 */
import { describe, expect, it } from 'vitest';
import { resources } from '../src/resources/registry.js';
import { validateRecord } from '../src/validate/validateRecord.js';

type Rule =
  | 'required'
  | 'string'
  | 'money'
  | 'count'
  | 'boolean'
  | 'datetime'
  | 'enum'
  | 'strings'
  | 'json'
  | 'digits'
  | 'currency'
  | 'six'
  | 'four'
  | 'expiry'
  | 'latitude'
  | 'longitude'
  | 'number'
  | 'nonempty';

/** Values that each rule must reject, with the code it must report. */
const BAD: Record<Rule, [unknown, string][]> = {
  required: [[undefined, 'required']],
  nonempty: [['', 'empty-value']],
  string: [
    [252, 'invalid-type'],
    [true, 'invalid-type'],
  ],
  money: [
    ['10.5', 'invalid-type'],
    [-0.01, 'out-of-range'],
    [null, 'invalid-type'],
  ],
  count: [
    [0, 'out-of-range'],
    [1.5, 'invalid-type'],
    ['2', 'invalid-type'],
  ],
  boolean: [
    ['true', 'invalid-type'],
    [1, 'invalid-type'],
  ],
  datetime: [
    ['2024-03-01 10:00:00', 'invalid-datetime'],
    ['2024-02-30T10:00:00Z', 'invalid-datetime'],
    ['2024-03-01T10:00:00+01:00', 'invalid-datetime'],
  ],
  enum: [['not-a-listed-value', 'invalid-enum']],
  strings: [
    ['a|b', 'invalid-type'],
    [{ 0: 'a' }, 'invalid-type'],
  ],
  number: [
    ['-23.5', 'invalid-type'],
    [null, 'invalid-type'],
  ],
  json: [
    [[1, 2], 'invalid-type'],
    ['{"a":1}', 'invalid-type'],
  ],
  digits: [
    ['+55', 'invalid-format'],
    ['11 9999', 'invalid-format'],
  ],
  currency: [
    ['brl', 'invalid-format'],
    ['R$', 'invalid-format'],
  ],
  six: [
    ['41111', 'invalid-format'],
    ['4111111', 'invalid-format'],
  ],
  four: [
    ['123', 'invalid-format'],
    ['12a4', 'invalid-format'],
  ],
  expiry: [
    ['13/2027', 'invalid-format'],
    ['2027-08', 'invalid-format'],
  ],
  latitude: [
    [90.5, 'out-of-range'],
    [-91, 'out-of-range'],
  ],
  longitude: [
    [180.5, 'out-of-range'],
    [-181, 'out-of-range'],
  ],
};

const address = (prefix: string): [string, Rule[]][] => [
  ...['street_name', 'street_number', 'city', 'state', 'country'].map((f): [string, Rule[]] => [
    `${prefix}.${f}`,
    ['required', 'string'],
  ]),
  ...['zip_code', 'details', 'label'].map((f): [string, Rule[]] => [`${prefix}.${f}`, ['string']]),
  [`${prefix}.latitude`, ['latitude', 'number']],
  [`${prefix}.longitude`, ['longitude', 'number']],
  [`${prefix}.custom_data`, ['json']],
];

const deliverer = (prefix: string): [string, Rule[]][] => [
  [`${prefix}.id`, ['required', 'string']],
  [`${prefix}.name`, ['required', 'string']],
  ...['email', 'document', 'password_hash'].map((f): [string, Rule[]] => [`${prefix}.${f}`, ['string']]),
  ...['document_type', 'gender', 'user_type', 'social_login'].map((f): [string, Rule[]] => [
    `${prefix}.${f}`,
    ['enum'],
  ]),
  [`${prefix}.phone_number`, ['digits', 'string']],
  [`${prefix}.phone_country_code`, ['digits', 'string']],
  [`${prefix}.creation_datetime`, ['datetime']],
  [`${prefix}.custom_data`, ['json']],
  ...address(`${prefix}.address`),
];

const person = (prefix: string, extra: string[], enums: string[]): [string, Rule[]][] => [
  ...['id', 'name', 'email', 'document', 'phone_number', 'phone_country_code', ...extra].map(
    (f): [string, Rule[]] => [`${prefix}.${f}`, ['string']],
  ),
  ...['document_type', ...enums].map((f): [string, Rule[]] => [`${prefix}.${f}`, ['enum']]),
  [`${prefix}.creation_datetime`, ['datetime']],
  [`${prefix}.custom_data`, ['json']],
  ...address(`${prefix}.address`),
];

const FIELDS: Record<keyof typeof resources, [string, Rule[]][]> = {
  status: [
    ['id', ['required', 'nonempty', 'string']],
    ['status', ['required', 'enum']],
    ['status_reason', ['string']],
    ['custom_data', ['json']],
  ],
  fraud: [
    ['order_id', ['required', 'nonempty', 'string']],
    ['fraud_signal_type', ['required', 'enum']],
    ['fraud_comment', ['string']],
    ['custom_data', ['json']],
  ],
  payment: [
    ['id', ['required', 'nonempty', 'string']],
    ['order_id', ['required', 'nonempty', 'string']],
    ['acquirer_id', ['required', 'nonempty', 'string']],
    ['custom_data', ['json']],
  ],
  delivery: [
    ['id', ['required', 'nonempty', 'string']],
    ['order_id', ['required', 'nonempty', 'string']],
    ['type', ['enum']],
    ['delivery_datetime', ['datetime']],
    ['scheduled', ['boolean']],
    ['custom_data', ['json']],
    ...deliverer('deliverer'),
  ],
  order: [
    ['id', ['required', 'nonempty', 'string']],
    ['evaluate', ['boolean']],
    ['status', ['enum']],
    ['creation_datetime', ['datetime']],
    ...['total_paid_value', 'total_gross_value', 'discount_value', 'shipping_value', 'tip_value'].map(
      (f): [string, Rule[]] => [f, ['money']],
    ),
    ['currency', ['currency']],
    ['coupon_names', ['strings']],
    ['tax_invoice_document_type', ['enum']],
    ['tax_invoice_document', ['string']],
    ['custom_data', ['json']],
    ...person('user', ['password_hash'], ['gender', 'social_login', 'user_type']),
    ['items.0.quantity', ['count']],
    ...['unit_price', 'unit_discount', 'total_value'].map((f): [string, Rule[]] => [
      `items.0.${f}`,
      ['money'],
    ]),
    ['items.0.custom_data', ['json']],
    ...['product_id', 'sku', 'ean', 'title', 'description'].map((f): [string, Rule[]] => [
      `items.0.product.${f}`,
      ['string'],
    ]),
    ['items.0.product.categories', ['strings']],
    ['items.0.product.subcategories', ['strings']],
    ...person('items.0.product.seller', ['description'], []),
    ['items.0.product.seller.categories', ['strings']],
    ['items.0.product.seller.subcategories', ['strings']],
    ['payments.0.id', ['required', 'nonempty', 'string']],
    ['payments.0.method', ['string']],
    ['payments.0.value', ['money']],
    ['payments.0.installments', ['count']],
    ['payments.0.acquirer_id', ['nonempty', 'string']],
    ['payments.0.custom_data', ['json']],
    ['payments.0.card.first_six_digits', ['six', 'string']],
    ['payments.0.card.last_four_digits', ['four', 'string']],
    ['payments.0.card.expiration_date', ['expiry', 'string']],
    ['payments.0.card.holder_name', ['string']],
    ['payments.0.card.document', ['string']],
    ['deliveries.0.id', ['required', 'nonempty', 'string']],
    ['deliveries.0.type', ['enum']],
    ['deliveries.0.delivery_datetime', ['datetime']],
    ['deliveries.0.scheduled', ['boolean']],
    ['deliveries.0.custom_data', ['json']],
    ...deliverer('deliveries.0.deliverer'),
    ...address('deliveries.0.address'),
  ],
};

/** Sets (or with undefined, deletes) a dotted path in a copy of a record, creating parents on the way. */
function withValue(record: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(record);
  const segments = path.split('.');
  let node: Record<string, unknown> = copy;
  segments.slice(0, -1).forEach((segment, i) => {
    node[segment] ??= /^\d+$/.test(segments[i + 1]!) ? [] : {};
    node = node[segment] as Record<string, unknown>;
  });
  if (value === undefined) delete node[segments[segments.length - 1]!];
  else node[segments[segments.length - 1]!] = value;
  return copy;
}

describe.each(Object.keys(FIELDS) as (keyof typeof resources)[])('every field rule of %s', (endpoint) => {
  const resource = resources[endpoint];
  const base = resource.example as Record<string, unknown>;
  for (const [path, rules] of FIELDS[endpoint]) {
    for (const rule of rules) {
      it(`${path}: ${rule}`, () => {
        for (const [bad, code] of BAD[rule]) {
          // A required field is tested inside a parent that exists: deleting it from the example.
          const record = withValue(base, path, bad);
          const issues = validateRecord(resource, record, { now: new Date('2025-01-01T00:00:00Z') });
          expect(issues, `${path} = ${JSON.stringify(bad)}`).toContainEqual(
            expect.objectContaining({ severity: 'error', code, path }),
          );
        }
      });
    }
  }
});
