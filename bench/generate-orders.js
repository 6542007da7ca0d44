// Writes a deterministic orders CSV with nested columns (user, payments.0.card, deliveries), ~0.1% invalid rows.
import { writeCsv } from './write-csv.js';

const HEADER = [
  'id', 'evaluate', 'creation_datetime', 'total_paid_value', 'total_gross_value', 'currency', 'coupon_names',
  'user.id', 'user.name', 'user.email', 'user.document', 'user.phone_number', 'user.phone_country_code',
  'user.address.street_name', 'user.address.street_number', 'user.address.city', 'user.address.state', 'user.address.country',
  'items.0.quantity', 'items.0.unit_price', 'items.0.product.sku', 'items.0.product.title', 'items.0.product.categories',
  'payments.0.id', 'payments.0.method', 'payments.0.value', 'payments.0.installments',
  'payments.0.card.first_six_digits', 'payments.0.card.last_four_digits', 'payments.0.card.expiration_date', 'payments.0.card.holder_name',
  'deliveries.0.id', 'deliveries.0.type', 'deliveries.0.deliverer.id', 'deliveries.0.deliverer.name',
];

function row(n) {
  const value = ((n * 7919) % 100000) / 100 + 1;
  const day = String((n % 28) + 1).padStart(2, '0');
  const month = String((n % 12) + 1).padStart(2, '0');
  const invalid = n % 1000 === 999;
  return [
    `ORD-${n}`, n % 3 === 0 ? 'true' : 'false', `2023-${month}-${day}T${String(n % 24).padStart(2, '0')}:15:00Z`,
    invalid ? `"${value.toFixed(2).replace('.', ',')}"` : value.toFixed(2), (value + 5).toFixed(2), 'BRL', n % 5 === 0 ? 'WELCOME|FREESHIP' : '',
    `CUST-${n % 50000}`, `"Customer ${n}, Jr"`, `customer${n}@example.com`, String(10000000000 + n).padStart(11, '0'), '11987654321', '55',
    'Avenida Paulista', String(n % 2000), 'Sao Paulo', 'SP', 'BR',
    String((n % 3) + 1), (value / ((n % 3) + 1)).toFixed(2), `SKU-${n % 997}`, 'Running shoes', 'sports|shoes',
    `PAY-${n}`, 'credit_card', value.toFixed(2), String((n % 12) + 1),
    '411111', String(n % 10000).padStart(4, '0'), `${month}/2029`, `CUSTOMER ${n}`,
    `DEL-${n}`, n % 2 === 0 ? 'express' : 'normal', `courier-${n % 300}`, 'Joana Lima',
  ].join(',');
}

export function generateOrders(path, rows) {
  return writeCsv(path, HEADER.join(','), rows, row);
}
