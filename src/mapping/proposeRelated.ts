/**
 * A marketplace's files around its orders file (source-files.md B.2): lists by the order's key, lookups by a
 * column's key.
 */
import { cellsOf, fold, quote, shown, type SampledFile } from './proposeCells.js';
import { columnSource, roleLines, type Line, type SourceOf } from './proposeLines.js';
import { isSkip, roleOf, type Scope } from './proposeRoles.js';
import type { ListPlan } from './proposalText.js';

/** The columns of a file that feed fields of `scope`, as lines; the others as notes naming why not. */
export function scopeLines(
  sample: SampledFile,
  scope: Scope,
  skip: ReadonlySet<string>,
  sourceOf: (header: string) => SourceOf,
): { lines: Line[]; notes: string[] } {
  const lines: Line[] = [];
  const notes: string[] = [];
  const empty: string[] = [];
  for (const [position, header] of sample.header.entries()) {
    if (skip.has(header)) continue;
    const cells = cellsOf(sample, position);
    const known = roleOf(header);
    if (cells.length === 0) empty.push(quote(header));
    else if (isSkip(known)) notes.push(`not proposed: ${quote(header)}: ${known.skip}`);
    else if (!known || known.scope !== scope)
      notes.push(`?: ${quote(header)}   # not matched; e.g. ${JSON.stringify(shown(cells[0]!))}`);
    else if (!lines.some((line) => line.target === known.target))
      lines.push(...roleLines(known, { header, cells }, sourceOf(header)));
  }
  if (empty.length > 0) notes.push(`empty in the sample: ${empty.join(', ')}`);
  return { lines, notes };
}

/** A lookup file: its first column is its key, unique in the sample, and a column of the file that reads it. */
export function lookupFile(files: readonly SampledFile[], header: readonly string[], scope: Scope) {
  return files.find((file) => {
    const key = file.header[0];
    if (key === undefined || !header.includes(key)) return false;
    const keys = cellsOf(file, 0);
    const scoped = file.header.some((column) => {
      const known = roleOf(column);
      return known !== undefined && !isSkip(known) && known.scope === scope;
    });
    return scoped && new Set(keys).size === keys.length;
  });
}

export const lookupSource =
  (file: SampledFile): ((header: string) => SourceOf) =>
  (header) =>
  (converters) =>
    `{ lookup: { from: ${quote(file.file)}, key: ${quote(file.header[0]!)}, column: ` +
    `${quote(header)} }${converters ? `, ${converters}` : ''} }`;

/** The payments list of an order from a file of its own, by the order's key. */
export function paymentsList(file: SampledFile, key: string): ListPlan {
  const { lines, notes } = scopeLines(file, 'payment', new Set([key]), columnSource);
  const sequence = file.header.find((header) => /seq/.test(fold(header)));
  if (sequence) {
    notes.splice(
      notes.findIndex((note) => note.includes(quote(sequence))),
      1,
    );
    lines.unshift({
      target: 'id',
      source: `{ template: ${JSON.stringify(`{${key}}-{${sequence}}`)} }`,
      reason: `the order's key and ${JSON.stringify(shown(sequence))}: unique within the order`,
    });
  } else notes.push('id: no sequence column to tell an order\'s payments apart: add { template: "..." }');
  const method = lines.find((line) => line.target === 'method');
  const at = file.header.findIndex((header) => {
    const known = roleOf(header);
    return known !== undefined && !isSkip(known) && known.scope === 'payment' && known.target === 'method';
  });
  if (method && cellsOf(file, at).includes('not_defined'))
    method.source = `{ column: ${method.source}, values: { not_defined: other } }`;
  const installments = file.header.findIndex((header) => fold(header) === 'paymentinstallments');
  if (installments >= 0 && cellsOf(file, installments).includes('0'))
    notes.push(
      'a 0 in payment_installments is no valid installments (>= 1): the dry run lists those payments',
    );
  return {
    name: 'payments',
    from: file.file,
    key,
    reason: `the payments file's rows of the order, by ${shown(key)}`,
    fields: lines,
    notes,
  };
}

/** The items list of an order from a file of its own, by the order's key; products by lookup. */
export function itemsList(file: SampledFile, key: string, files: readonly SampledFile[]): ListPlan {
  const { lines, notes } = scopeLines(file, 'item', new Set([key]), columnSource);
  if (!lines.some((line) => line.target === 'quantity'))
    lines.unshift({
      target: 'quantity',
      source: '{ value: 1 }',
      reason: 'no quantity column: one row per unit',
    });
  const products = lookupFile(files, file.header, 'product');
  if (products) {
    const looked = scopeLines(products, 'product', new Set([products.header[0]!]), lookupSource(products));
    lines.push(
      ...looked.lines.map((line) => ({ ...line, reason: `${line.reason}, from ${shown(products.file)}` })),
    );
    notes.push(...looked.notes.map((note) => `${shown(products.file)}: ${note}`));
  }
  return {
    name: 'items',
    from: file.file,
    key,
    reason: `the items file's rows of the order, by ${shown(key)}`,
    fields: lines,
    notes,
  };
}
