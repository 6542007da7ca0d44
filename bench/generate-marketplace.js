// A marketplace export in the shape of the worked example (fixtures/marketplace), at any size:
// orders with local São Paulo times and their own status words, payments and items in their own
// files (not sorted by order, as real exports are not), customers, products and sellers.
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeCsv } from './write-csv.js';

const fixture = fileURLToPath(new URL('../fixtures/marketplace/', import.meta.url));
const STATUSES = [
  'delivered',
  'delivered',
  'delivered',
  'shipped',
  'canceled',
  'processing',
  'created',
  'unavailable',
  'invoiced',
];
const TYPES = ['credit_card', 'credit_card', 'boleto', 'voucher', 'debit_card'];
const PRODUCTS = 20_000;
const SELLERS = 3_000;

const hex = (n, salt) =>
  (BigInt(n) * 2654435761n + BigInt(salt) * 40503n).toString(16).padStart(32, '0').slice(-32);
const orderId = (n) => hex(n, 1);
const customerId = (n) => hex(n, 2);
const productId = (n) => hex(n % PRODUCTS, 3);
const sellerId = (n) => hex(n % SELLERS, 4);
function localTime(n) {
  const at = new Date(Date.UTC(2017, 0, 1) + ((n * 7919) % (600 * 86400)) * 1000);
  return (
    `${at.getUTCMonth() + 1}/${at.getUTCDate()}/${at.getUTCFullYear()} ${at.getUTCHours()}:` +
    `${String(at.getUTCMinutes()).padStart(2, '0')}`
  );
}
// Rows of children in a scrambled order (a fixed permutation of the orders), as exports list them.
const scrambled = (orders) => (k) => (k * 48271) % orders;
const paymentsOf = (n) => (n % 5 === 0 ? 2 : 1);
const itemsOf = (n) => (n % 3 === 0 ? 2 : 1);

/** Writes the six files of an export of `orders` orders into `dir`, with the fixture's mapping. */
export async function generateMarketplace(dir, orders) {
  mkdirSync(dir, { recursive: true });
  copyFileSync(`${fixture}mapping.yaml`, `${dir}/mapping.yaml`);
  await writeCsv(
    `${dir}/olist_orders_dataset.csv`,
    'order_id,customer_id,order_status,order_purchase_timestamp,order_approved_at,' +
      'order_delivered_carrier_date,order_delivered_customer_date,order_estimated_delivery_date',
    orders,
    (n) =>
      `${orderId(n)},${customerId(n)},${STATUSES[n % STATUSES.length]},${localTime(n)},` +
      `${localTime(n + 1)},,,${localTime(n + 90)}`,
  );
  const order = scrambled(orders);
  const payments = [];
  await writeCsv(
    `${dir}/olist_order_payments_dataset.csv`,
    'order_id,payment_sequential,payment_type,payment_installments,payment_value',
    orders,
    (k) => {
      const n = order(k);
      payments.length = 0;
      for (let s = 1; s <= paymentsOf(n); s++)
        payments.push(
          `${orderId(n)},${s},${TYPES[(n + s) % TYPES.length]},${1 + (n % 6)},` +
            `${(10 + (n % 900) + s * 0.37).toFixed(2)}`,
        );
      return payments.join('\n');
    },
  );
  const items = [];
  await writeCsv(
    `${dir}/olist_order_items_dataset.csv`,
    'order_id,order_item_id,product_id,seller_id,shipping_limit_date,price,freight_value',
    orders,
    (k) => {
      const n = order(k);
      items.length = 0;
      for (let i = 1; i <= itemsOf(n); i++)
        items.push(
          `${orderId(n)},${i},${productId(n + i)},${sellerId(n + i)},${localTime(n + 3)},` +
            `${(5 + (n % 400) + i).toFixed(2)},${(n % 30).toFixed(2)}`,
        );
      return items.join('\n');
    },
  );
  await writeCsv(
    `${dir}/olist_customers_dataset.csv`,
    'customer_id,customer_unique_id,customer_zip_code_prefix,customer_city,customer_state',
    orders,
    (n) => `${customerId(n)},${hex(n, 5)},${String(n % 99999).padStart(5, '0')},sao paulo,SP`,
  );
  await writeCsv(
    `${dir}/olist_products_dataset.csv`,
    'product_id,product_category_name,product_name_lenght,product_description_lenght,' +
      'product_photos_qty,product_weight_g',
    PRODUCTS,
    (n) => `${productId(n)},category_${n % 70},40,300,2,${100 + (n % 5000)}`,
  );
  await writeCsv(
    `${dir}/olist_sellers_dataset.csv`,
    'seller_id,seller_zip_code_prefix,seller_city,seller_state',
    SELLERS,
    (n) => `${sellerId(n)},${String(n % 99999).padStart(5, '0')},curitiba,PR`,
  );
}

/** Records a mapped run of `orders` orders yields: one creation each, one status for every order not "created". */
export function expectedRecords(orders) {
  let statuses = 0;
  for (let n = 0; n < orders; n++) if (STATUSES[n % STATUSES.length] !== 'created') statuses++;
  return orders + statuses;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generateMarketplace(process.argv[2], Number(process.argv[3] ?? 1000));
}
