/**
 * Spreadsheet formula injection in the CSV files collect writes (`--rejects`).
 *
 * The rule, for a CSV file that has the `collect_reason` column (one collect wrote):
 * - writing: a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return (what a
 *   spreadsheet runs as a formula), or with `'` itself, gets one `'` put in front, unless it is a
 *   plain number such as `-12.50` (which a spreadsheet reads as a number, never as a formula);
 * - reading back: every cell that starts with `'` loses exactly that one `'`.
 * Escaping `'` too makes the round trip exact for every cell, a user's own `'abc` included.
 * Files without the `collect_reason` column (the user's own exports) are never changed.
 */

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRIGGER = /^[=+\-@\t\r']/;

/** One cell as written to a rejects CSV: a formula-like cell is prefixed with `'`. */
export function neutraliseFormula(cell: string): string {
  return TRIGGER.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

/** One cell of a rejects CSV read back: the `'` that `neutraliseFormula` added is removed. */
export function restoreFormula(cell: string): string {
  return cell.charCodeAt(0) === 39 ? cell.slice(1) : cell;
}
