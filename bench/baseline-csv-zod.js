// The bare libraries with the same schema: csv-parse, a plain loop building each nested record
// from the dotted header, and collect's zod schema for orders; no other collect code.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { orderSchema } from '../dist/resources/order/schema.js';

const NUMBERS = new Set([
  'total_paid_value',
  'total_gross_value',
  'items.0.quantity',
  'items.0.unit_price',
  'payments.0.value',
  'payments.0.installments',
]);
const LISTS = new Set(['coupon_names', 'items.0.product.categories']);
let header;
let valid = 0;
let rows = 0;
for await (const cells of createReadStream(process.argv[2], { highWaterMark: 256 * 1024 }).pipe(parse())) {
  if (!header) {
    header = cells.map((name) => ({
      name,
      path: name.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
    }));
    continue;
  }
  const record = {};
  for (let i = 0; i < header.length; i++) {
    const cell = cells[i];
    if (cell === undefined || cell === '') continue;
    const { name, path } = header[i];
    let target = record;
    for (let s = 0; s < path.length - 1; s++)
      target = target[path[s]] ??= typeof path[s + 1] === 'number' ? [] : {};
    target[path[path.length - 1]] = NUMBERS.has(name)
      ? Number(cell)
      : LISTS.has(name)
        ? cell.split('|')
        : name === 'evaluate'
          ? cell === 'true'
          : cell;
  }
  rows++;
  if (orderSchema.safeParse(record).success) valid++;
}
process.stdout.write(`${rows} ${valid}\n`);
