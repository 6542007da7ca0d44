/**
 * `map init` for an export of orders (source-files.md, part B): the orders file's known columns
 * as the order's fields, its items from its own rows (one row per item) or from an items file,
 * its payments, a customers file by lookup, and the status and delivery entries its columns carry.
 */
import { identifierCells, perItemShape } from './exportShape.js';
import { cellsOf, guessDatetime, quote, shown, type SampledFile } from './proposeCells.js';
import { columnSource, roleLines, type Known, type Line } from './proposeLines.js';
import { itemsList, lookupFile, lookupSource, paymentsList, scopeLines } from './proposeRelated.js';
import { isSkip, roleOf } from './proposeRoles.js';
import { deliveryEntry, statusEntry } from './proposeEntries.js';
import type { EntryPlan, ListPlan } from './proposalText.js';

const known = (header: string) => {
  const found = roleOf(header);
  return found && !isSkip(found) ? found : undefined;
};

/** An orders file: a creation time that reads as dates, and an id (or an order number to be the id). */
export function ordersKey(file: SampledFile): number | undefined {
  const created = file.header.findIndex((header) => known(header)?.target === 'creation_datetime');
  if (created < 0 || !guessDatetime(cellsOf(file, created))) return undefined;
  const id = file.header.findIndex((header) => known(header)?.target === 'id');
  if (id >= 0) return id;
  const number = file.header.findIndex(
    (header, at) =>
      known(header)?.target.startsWith('custom_data.order_') && identifierCells(cellsOf(file, at)),
  );
  return number >= 0 ? number : undefined;
}

/** The most common two-letter country among cells: the `country:` of phone numbers written without +. */
function commonCountry(cells: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const cell of cells) if (/^[A-Z]{2}$/.test(cell)) counts.set(cell, (counts.get(cell) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** The order's lines from its own columns: one column per field, an address only when it is whole, one phone. */
function orderLines(columns: Known[], idHeader: string, notes: string[]): Line[] {
  const lines: Line[] = [];
  const phones = columns.filter((column) => column.role.how === 'phone');
  const phone = phones.find((column) => /billing/i.test(column.header)) ?? phones[0];
  const country = phone?.cells.some((cell) => !cell.startsWith('+'))
    ? commonCountry(columns.find((column) => column.role.target === 'user.address.country')?.cells ?? [])
    : undefined;
  for (const column of columns) {
    if (column.role.how === 'phone' && column !== phone) {
      notes.push(
        `not proposed: ${quote(column.header)}: the customer's phone is read from ${quote(phone!.header)}`,
      );
      continue;
    }
    for (const line of roleLines(column.role, column, columnSource(column.header), country))
      if (!lines.some((other) => other.target === line.target)) lines.push(line);
  }
  for (const prefix of ['user.address.', 'deliveries.0.address.']) {
    const missing = ['street_name', 'city', 'state', 'country'].filter(
      (field) => !lines.some((line) => line.target === `${prefix}${field}`),
    );
    const some = lines.some((line) => line.target.startsWith(prefix));
    if (some && missing.length > 0) {
      notes.push(`${prefix.slice(0, -1)} not proposed: no column with values for its ${missing.join(', ')}`);
      lines.splice(0, lines.length, ...lines.filter((line) => !line.target.startsWith(prefix)));
    }
  }
  const one = (list: string, reason: string) => {
    if (lines.some((line) => line.target.startsWith(`${list}.0.`) && !line.target.endsWith('.value')))
      lines.push({
        target: `${list}.0.id`,
        source: `{ template: ${JSON.stringify(`{${idHeader}}-1`)} }`,
        reason,
      });
    else lines.splice(0, lines.length, ...lines.filter((line) => !line.target.startsWith(`${list}.0.`)));
  };
  one('payments', "one payment per order, named after the order's id");
  one('deliveries', "one delivery per order, named after the order's id");
  return lines;
}

/** The entries proposed for one orders file, the files it reads beside it added to `used`. */
export function ordersEntries(
  file: SampledFile,
  keyAt: number,
  files: readonly SampledFile[],
  used: Set<SampledFile>,
): EntryPlan[] {
  const idHeader = file.header[keyAt]!;
  const shape = perItemShape(file.header.length, file.rows, (column) => column === keyAt);
  const firstRows = shape ? file.rows.filter((row) => (row[shape.firstRow] ?? '').trim() !== '') : file.rows;
  const orderColumns: Known[] = [];
  const itemColumns: Known[] = [];
  const notes: string[] = [];
  const empty: string[] = [];
  for (const [position, header] of file.header.entries()) {
    const found = roleOf(header);
    const item =
      found && !isSkip(found) ? found.scope === 'item' : (shape?.itemColumns.has(position) ?? false);
    const cells = cellsOf(file, position, item ? file.rows : firstRows);
    if (cells.length === 0) empty.push(quote(header));
    else if (isSkip(found)) notes.push(`not proposed: ${quote(header)}: ${found.skip}`);
    else if (!found || (found.scope !== 'order' && found.scope !== 'item'))
      notes.push(`?: ${quote(header)}   # not matched; e.g. ${JSON.stringify(shown(cells[0]!))}`);
    else if (position === keyAt) orderColumns.push({ header, role: { ...found, target: 'id' }, cells });
    else (item && shape ? itemColumns : orderColumns).push({ header, role: found, cells });
  }
  const lists: ListPlan[] = [];
  if (shape && itemColumns.length > 0) {
    const key = file.header[shape.key]!;
    const own: Line[] = [];
    for (const column of itemColumns)
      for (const line of roleLines(column.role, column, columnSource(column.header)))
        if (!own.some((other) => other.target === line.target)) own.push(line);
    lists.push({
      name: 'items',
      from: 'self',
      key,
      reason: `the order's rows of the same file, by ${shown(key)}`,
      fields: own,
      notes: [],
    });
  }
  const children = files.filter((other) => other !== file && other.header[0] === idHeader);
  for (const child of children) {
    const scopes = child.header.map((header) => known(header)?.scope);
    const kind =
      scopes.filter((s) => s === 'payment').length > scopes.filter((s) => s === 'item').length
        ? 'payments'
        : 'items';
    if (lists.some((list) => list.name === kind) || !scopes.some((s) => s === 'payment' || s === 'item'))
      continue;
    lists.push(kind === 'payments' ? paymentsList(child, idHeader) : itemsList(child, idHeader, files));
    used.add(child);
  }
  for (const list of lists)
    for (const other of files)
      if (list.fields.some((f) => f.source.includes(`from: ${quote(other.file)}`))) used.add(other);
  const fields = orderLines(orderColumns, idHeader, notes);
  const customers = lookupFile(
    files.filter((other) => other !== file),
    file.header,
    'customer',
  );
  if (customers) {
    used.add(customers);
    const looked = scopeLines(
      customers,
      'customer',
      new Set([customers.header[0]!]),
      lookupSource(customers),
    );
    if (looked.lines.some((line) => line.target === 'user.id')) {
      const own = fields.findIndex((line) => line.target === 'user.id');
      if (own >= 0) {
        notes.push(
          `not proposed as user.id: ${fields[own]!.source}: one per order in this export; the ` +
            `person is the customers file's id`,
        );
        fields.splice(own, 1);
      }
    }
    fields.push(
      ...looked.lines.map((line) => ({ ...line, reason: `${line.reason}, from ${shown(customers.file)}` })),
    );
    notes.push(...looked.notes.map((note) => `${shown(customers.file)}: ${note}`));
  }
  const has = (target: string) => fields.some((line) => line.target === target);
  const payments = lists.find((list) => list.name === 'payments');
  if (!has('total_paid_value') && payments?.fields.some((f) => f.target === 'value'))
    fields.push({
      target: 'total_paid_value',
      source: '{ sum: payments.value }',
      reason: "the sum of the order's payments (no total column)",
    });
  const items = lists.find((list) => list.name === 'items');
  if (items && ['unit_price', 'quantity'].every((target) => items.fields.some((f) => f.target === target)))
    fields.push({
      target: 'total_gross_value',
      source: '{ sum: items.unit_price, times: items.quantity }',
      reason: 'Σ unit price × quantity of the items',
    });
  if (empty.length > 0) notes.push(`empty in the sample: ${empty.join(', ')}`);
  const when = shape
    ? {
        text: `{ column: ${quote(file.header[shape.firstRow]!)}, present: true }`,
        reason: "one row per item: the order's own columns are on its first row only",
      }
    : undefined;
  const entries: EntryPlan[] = [
    { endpoint: 'order', from: file.file, ...(when ? { when } : {}), fields, lists, notes },
  ];
  const status = orderColumns.find((column) => column.role.how === 'status');
  if (status) entries.push(statusEntry(file, status, idHeader, when));
  const delivered = orderColumns.find((column) => column.role.how === 'delivery');
  if (delivered) entries.push(deliveryEntry(file, delivered, idHeader));
  return entries;
}
