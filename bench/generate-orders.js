// Writes a deterministic orders CSV with nested columns (user, payments.0.card, deliveries), ~0.1% invalid rows.
import { appendFileSync } from 'node:fs';
import { writeCsv, writeLines } from './write-csv.js';

const HEADER = [
  'id',
  'evaluate',
  'creation_datetime',
  'total_paid_value',
  'total_gross_value',
  'currency',
  'coupon_names',
  'user.id',
  'user.name',
  'user.email',
  'user.document',
  'user.phone_number',
  'user.phone_country_code',
  'user.address.street_name',
  'user.address.street_number',
  'user.address.city',
  'user.address.state',
  'user.address.country',
  'items.0.quantity',
  'items.0.unit_price',
  'items.0.product.sku',
  'items.0.product.title',
  'items.0.product.categories',
  'payments.0.id',
  'payments.0.method',
  'payments.0.value',
  'payments.0.installments',
  'payments.0.card.first_six_digits',
  'payments.0.card.last_four_digits',
  'payments.0.card.expiration_date',
  'payments.0.card.holder_name',
  'deliveries.0.id',
  'deliveries.0.type',
  'deliveries.0.deliverer.id',
  'deliveries.0.deliverer.name',
];

function row(n) {
  const value = ((n * 7919) % 100000) / 100 + 1;
  const day = String((n % 28) + 1).padStart(2, '0');
  const month = String((n % 12) + 1).padStart(2, '0');
  const invalid = n % 1000 === 999;
  return [
    `ORD-${n}`,
    n % 3 === 0 ? 'true' : 'false',
    `2023-${month}-${day}T${String(n % 24).padStart(2, '0')}:15:00Z`,
    invalid ? `"${value.toFixed(2).replace('.', ',')}"` : value.toFixed(2),
    (value + 5).toFixed(2),
    'BRL',
    n % 5 === 0 ? 'WELCOME|FREESHIP' : '',
    `CUST-${n % 50000}`,
    `"Customer ${n}, Jr"`,
    `customer${n}@example.com`,
    String(10000000000 + n).padStart(11, '0'),
    '11987654321',
    '55',
    'Avenida Paulista',
    String(n % 2000),
    'Sao Paulo',
    'SP',
    'BR',
    String((n % 3) + 1),
    (value / ((n % 3) + 1)).toFixed(2),
    `SKU-${n % 997}`,
    'Running shoes',
    'sports|shoes',
    `PAY-${n}`,
    'credit_card',
    value.toFixed(2),
    String((n % 12) + 1),
    '411111',
    String(n % 10000).padStart(4, '0'),
    `${month}/2029`,
    `CUSTOMER ${n}`,
    `DEL-${n}`,
    n % 2 === 0 ? 'express' : 'normal',
    `courier-${n % 300}`,
    'Joana Lima',
  ].join(',');
}

export function generateOrders(path, rows) {
  return writeCsv(path, HEADER.join(','), rows, row);
}

const NUMBERS = new Set([
  'total_paid_value',
  'total_gross_value',
  'items.0.quantity',
  'items.0.unit_price',
  'payments.0.value',
  'payments.0.installments',
]);
const LISTS = new Set(['coupon_names', 'items.0.product.categories']);

/** The same order as its CSV row, as a nested record (the invalid rows' value stays a string). */
export function orderRecord(n) {
  const cells = row(n)
    .match(/("[^"]*"|[^,]*)(,|$)/g)
    .map((cell) => cell.replace(/,$/, '').replace(/^"(.*)"$/, '$1'));
  const record = {};
  HEADER.forEach((name, i) => {
    const cell = cells[i];
    if (cell === undefined || cell === '') return;
    const path = name.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    let target = record;
    for (let s = 0; s < path.length - 1; s++)
      target = target[path[s]] ??= typeof path[s + 1] === 'number' ? [] : {};
    const number = NUMBERS.has(name) && /^[\d.]+$/.test(cell);
    target[path.at(-1)] = number
      ? Number(cell)
      : LISTS.has(name)
        ? cell.split('|')
        : name === 'evaluate'
          ? cell === 'true'
          : cell;
  });
  return record;
}

/** The same orders as NDJSON, one record a line. */
export function generateOrdersNdjson(path, rows) {
  return writeLines(path, rows, (n) => JSON.stringify(orderRecord(n)));
}

/** The same orders as one JSON array, one element a line. */
export async function generateOrdersJson(path, rows) {
  await writeLines(path, rows, (n) => `${n === 0 ? '' : ','}${JSON.stringify(orderRecord(n))}`, '[');
  appendFileSync(path, ']\n');
}
