import {
  arrays,
  type ArrayStatement,
  type Database,
  type SQLInputValue,
  type Statement,
} from '../../platform/sqlite.js';
import type { PriorOrder } from '../../flow/timeline.js';
import type { RememberedTable } from '../../resources/resource.js';
import { keyColumns, rowObject } from '../declared.js';

interface Prepared {
  table: RememberedTable;
  upsert: Statement;
  read: ArrayStatement<(string | null)[]>;
  any: boolean;
  /** The EXISTS query behind `any`, prepared at the first recount. */
  exists?: ArrayStatement;
}

/** The SQLite DDL of a declared table. */
export function createSql(table: RememberedTable): string {
  const columns = [
    'order_id TEXT NOT NULL',
    ...table.columns.map((column, i) => `${column} TEXT${i < table.key ? ' NOT NULL' : ''}`),
  ];
  return (
    `CREATE TABLE IF NOT EXISTS ${table.name} (${columns.join(', ')}, PRIMARY KEY (` +
    `${keyColumns(table).join(', ')})) WITHOUT ROWID`
  );
}

/** An upsert of one row: a later row of the same key replaces the earlier one's other columns. */
export function upsertSql(table: RememberedTable): string {
  const all = ['order_id', ...table.columns];
  const rest = table.columns.slice(table.key);
  const onConflict =
    rest.length === 0
      ? 'DO NOTHING'
      : `DO UPDATE SET ${rest.map((column) => `${column} = excluded.${column}`).join(', ')}`;
  return (
    `INSERT INTO ${table.name} (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')}) ON ` +
    `CONFLICT (${keyColumns(table).join(', ')}) ${onConflict}`
  );
}

/**
 * The tables resources declare (RememberedTable), made in a SQLite state as declared: a missing
 * table is created, a missing column added; the core tables are declared in coreTables.ts.
 */
export class DeclaredTables {
  private readonly byName = new Map<string, Prepared>();

  constructor(
    private readonly db: Database,
    tables: readonly RememberedTable[],
  ) {
    for (const table of tables) {
      db.exec(createSql(table));
      const have = new Set(
        (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table.name) as { name: string }[]).map(
          (column) => column.name,
        ),
      );
      for (const column of table.columns)
        if (!have.has(column)) db.exec(`ALTER TABLE ${table.name} ADD COLUMN ${column} TEXT`);
      const read = arrays<(string | null)[]>(
        db.prepare(`SELECT ${table.columns.join(', ') || 'NULL'} FROM ${table.name} WHERE order_id = ?`),
      );
      this.byName.set(table.name, { table, upsert: db.prepare(upsertSql(table)), read, any: false });
    }
    this.recount();
  }

  /** Reads afresh which tables hold rows: a run reads only those that held some before it. */
  recount(): void {
    for (const prepared of this.byName.values()) {
      prepared.exists ??= arrays(this.db.prepare(`SELECT EXISTS (SELECT 1 FROM ${prepared.table.name})`));
      prepared.any = prepared.exists.get()?.[0] === 1;
    }
  }

  readonly addRow = (table: RememberedTable, orderId: string, values: readonly (string | null)[]): void => {
    const prepared = this.byName.get(table.name);
    if (!prepared) throw new Error(`the state was opened without the table ${table.name}`);
    prepared.upsert.run(orderId, ...table.columns.map((_, i) => values[i] ?? null));
  };

  /** Whether any declared table held rows before the run. */
  get any(): boolean {
    return [...this.byName.values()].some((prepared) => prepared.any);
  }

  /** An order's rows in the tables that held any, by table; undefined when it has none. */
  rowsOf(orderId: string): PriorOrder['rows'] {
    let rows: PriorOrder['rows'];
    for (const { table, read, any } of this.byName.values()) {
      if (!any) continue;
      const found = read.all(orderId);
      if (found.length > 0) (rows ??= {})[table.name] = found.map((values) => rowObject(table, values));
    }
    return rows;
  }

  /**
   * Replaces a declared table's rows (order id first, then its columns); false when no table of that name is
   * declared.
   */
  replace(name: string, rows: readonly (readonly unknown[])[]): boolean {
    const prepared = this.byName.get(name);
    if (!prepared) return false;
    this.db.exec(`DELETE FROM ${name}`);
    for (const row of rows) prepared.upsert.run(...(row as SQLInputValue[]));
    return true;
  }
}
