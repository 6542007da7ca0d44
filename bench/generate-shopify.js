// A Shopify "Export orders" export in the shape of fixtures/shopify, at any size: one row per line
// item (the order's columns on its first row only), -0400 offsets, phones and addresses as written,
// split into monthly files, with the fixture's one mapping. --excel writes it ";"-separated Windows-1252.
//   node bench/generate-shopify.js DIR ORDERS [MONTHS] [--excel]
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const fixture = fileURLToPath(new URL('../fixtures/shopify/', import.meta.url));
const header = readFileSync(`${fixture}orders_export_1.csv`, 'utf8').split('\n')[0].split(',');
const STREETS = ['Rua Augusta, 1500', 'Av. Paulista 1578', 'Rua das Flores, 45B', 'Rua Oscar Freire, 900'];
const PHONES = ['+55 11 99123-4567', '(21) 98765-4321', '+55 (11) 99876-5432', '+351 912 345 678'];
const NAMES = ['Ana Souza', 'João Conceição', 'Maria Gonçalves', 'Pedro Álvares'];
const STATUS = ['paid', 'paid', 'pending', 'refunded', 'voided'];
const PRODUCTS = ['Caneca Açaí', 'Camiseta Conceição', 'Tênis Corrida', 'Meia Algodão', 'Boné'];

function orderRows(n, month) {
  const items = 1 + (n % 3);
  const day = 1 + (n % 28);
  const created =
    `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')} ` +
    `${String(n % 24).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:16 -0400`;
  const lines = [];
  let subtotal = 0;
  for (let i = 0; i < items; i++) {
    const quantity = 1 + ((n + i) % 4);
    const price = (9.9 + ((n * 7 + i * 13) % 500)).toFixed(2);
    subtotal += quantity * Number(price);
    lines.push({ quantity, price, name: PRODUCTS[(n + i) % PRODUCTS.length], sku: `SKU-${(n + i) % 9973}` });
  }
  return lines.map((line, i) => {
    const row = Object.fromEntries(header.map((column) => [column, '']));
    Object.assign(row, {
      Name: `#${1000 + n}`,
      'Lineitem quantity': String(line.quantity),
      'Lineitem name': line.name,
      'Lineitem price': line.price,
      'Lineitem sku': line.sku,
      Vendor: 'Casa Brasil',
    });
    if (i === 0)
      Object.assign(row, {
        Email: `customer${n % 50_000}@example.com`,
        'Financial Status': STATUS[n % STATUS.length],
        'Fulfillment Status': 'fulfilled',
        Currency: 'BRL',
        Subtotal: subtotal.toFixed(2),
        Shipping: '15.00',
        Taxes: '0.00',
        Total: (subtotal + 15).toFixed(2),
        'Discount Code': n % 4 === 0 ? 'BEMVINDO10, INVERNO' : '',
        'Discount Amount': '0.00',
        'Created at': created,
        'Billing Name': NAMES[n % NAMES.length],
        'Billing Street': STREETS[n % STREETS.length],
        'Billing Address1': STREETS[n % STREETS.length],
        'Billing City': 'São Paulo',
        'Billing Zip': '01304-001',
        'Billing Province': 'SP',
        'Billing Country': 'BR',
        'Billing Phone': PHONES[n % PHONES.length],
        'Payment Method': n % 2 ? 'pix' : 'Shopify Payments',
        Id: String(6_000_000_000_000 + n),
      });
    return header.map((column) => row[column]);
  });
}

const cell = (text, delimiter) =>
  text.includes(delimiter) || text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text;

export async function generateShopify(dir, orders, months = 2, excel = false) {
  mkdirSync(dir, { recursive: true });
  const delimiter = excel ? ';' : ',';
  const encoding = excel ? 'latin1' : 'utf8'; // the text is all in Latin-1's range, which Windows-1252 shares
  const mapping = readFileSync(`${fixture}mapping.yaml`, 'utf8');
  writeFileSync(
    `${dir}/mapping.yaml`,
    excel
      ? mapping.replace(/^version: 1$/m, 'version: 1\ncsv: { delimiter: ";", encoding: windows-1252 }')
      : mapping,
  );
  const per = Math.ceil(orders / months);
  for (let month = 1; month <= months; month++) {
    const out = createWriteStream(`${dir}/orders_export_${month}.csv`);
    const line = (cells) => cells.map((c) => cell(c, delimiter)).join(delimiter) + (excel ? '\r\n' : '\n');
    out.write(Buffer.from(line(header), encoding));
    let batch = '';
    for (let n = (month - 1) * per; n < Math.min(orders, month * per); n++) {
      for (const row of orderRows(n, month)) batch += line(row);
      if (batch.length > 1 << 20) {
        if (!out.write(Buffer.from(batch, encoding))) await once(out, 'drain');
        batch = '';
      }
    }
    out.write(Buffer.from(batch, encoding));
    out.end();
    await once(out, 'finish');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, orders, months] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  if (!dir || !orders || process.argv.includes('--help')) {
    console.log('usage: node bench/generate-shopify.js DIR ORDERS [MONTHS=2] [--excel]');
    process.exit(dir ? 0 : 2);
  }
  await generateShopify(dir, Number(orders), Number(months ?? 2), process.argv.includes('--excel'));
}
