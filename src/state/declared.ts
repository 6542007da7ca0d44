import { registry } from '../resources/registry.js';
import type { RememberedTable, Resource } from '../resources/resource.js';

const NAME = /^[a-z][a-z0-9_]{0,40}$/;

/**
 * The tables a state keeps besides its core ones: those the registry's resources and the run's own declare,
 * each once.
 */
export function declaredTables(extra: readonly Resource[] = []): RememberedTable[] {
  const byName = new Map<string, RememberedTable>();
  for (const resource of [...registry.all, ...extra]) {
    for (const table of resource.tables ?? []) byName.set(table.name, checked(table as RememberedTable));
  }
  return [...byName.values()];
}

/** A declaration whose names are safe as SQL identifiers as they are, and whose key is some of its columns. */
function checked(table: RememberedTable): RememberedTable {
  const names = [table.name, ...table.columns];
  if (!names.every((name) => NAME.test(name)) || table.columns.includes('order_id')) {
    throw new Error(
      `the state table ${table.name} declares a name that is not lowercase letters, digits and _ ` +
        `(or order_id twice)`,
    );
  }
  if (table.columns.length === 0 || table.key < 0 || table.key > table.columns.length)
    throw new Error(
      `the state table ${table.name} has a key of ${table.key} of its ${table.columns.length} columns`,
    );
  return table;
}

/** The key columns of a declared table: its order, then its first `key` columns. */
export const keyColumns = (table: RememberedTable): string[] => [
  'order_id',
  ...table.columns.slice(0, table.key),
];

/** A row of a declared table, as a later run sees it (PriorOrder.rows). */
export function rowObject(table: RememberedTable, values: readonly unknown[]): Record<string, string | null> {
  return Object.fromEntries(table.columns.map((column, i) => [column, (values[i] ?? null) as string | null]));
}
