/**
 * What `map init` reads from an export's sample rows beyond single columns: its one-row-per-item shape,
 * identifiers.
 */

/** A one-row-per-item export: the key column repeating on an order's rows, and the columns of its items. */
export interface PerItemShape {
  /** The key column (`Name`: `#1001` on each of the order's rows). */
  key: number;
  /** Columns empty on every row but an order's first: the order's own. */
  orderColumns: Set<number>;
  /** The other columns but the key: each item's (filled on the order's every row). */
  itemColumns: Set<number>;
  /** An order column filled on every order's first row: the `when` that keeps first rows. */
  firstRow: number;
}

const filled = (row: readonly string[], at: number) => (row[at] ?? '').trim() !== '';

/**
 * Recognises a one-row-per-item export (Shopify, WooCommerce, VTEX): a column filled on every row
 * whose value repeats on consecutive rows, while some other columns are empty on those repeats.
 * Of several such columns, the one that repeats most is the key.
 */
export function perItemShape(
  width: number,
  rows: readonly (readonly string[])[],
  prefer: (column: number) => boolean = () => false,
): PerItemShape | undefined {
  let best: (PerItemShape & { repeats: number }) | undefined;
  for (let key = 0; key < width; key++) {
    if (!rows.every((row) => filled(row, key))) continue;
    const repeat = rows.map((row, i) => i > 0 && row[key]!.trim() === rows[i - 1]![key]!.trim());
    const repeats = repeat.filter(Boolean).length;
    if (repeats === 0 || (best && repeats <= best.repeats)) continue;
    const firsts = rows.filter((_, i) => !repeat[i]);
    const orderColumns = new Set<number>();
    const itemColumns = new Set<number>();
    for (let column = 0; column < width; column++) {
      if (column === key) continue;
      const onRepeats = rows.some((row, i) => repeat[i] && filled(row, column));
      if (!onRepeats && firsts.some((row) => filled(row, column))) orderColumns.add(column);
      else itemColumns.add(column);
    }
    const always = [...orderColumns].filter((column) => firsts.every((row) => filled(row, column)));
    if (always.length === 0) continue;
    const firstRow = always.find(prefer) ?? always[0]!;
    best = { key, orderColumns, itemColumns, firstRow, repeats };
  }
  if (!best) return undefined;
  const { repeats: _repeats, ...shape } = best;
  return shape;
}

/** Cells that name a thing, not a person: each holds a digit and no space (`#1001`, `A-17`, `5551234`). */
export function identifierCells(cells: readonly string[]): boolean {
  return cells.length > 0 && cells.every((cell) => /\d/.test(cell) && !/\s/.test(cell.trim()));
}
