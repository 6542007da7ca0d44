import { coreTables, type CoreColumnType, type CoreTable } from '../coreTables.js';

/** How SQLite stores each kind of column: hashes as their 20 bytes, outcomes and times as integers. */
const sqliteType: Record<CoreColumnType, string> = {
  text: 'TEXT',
  integer: 'INTEGER',
  hash: 'BLOB',
  flag: 'INTEGER',
  outcome: 'INTEGER',
  instant: 'INTEGER',
  isoTime: 'TEXT',
};

/** The SQLite DDL of one core table and its indexes. */
export function sqliteTableSql(table: CoreTable): string {
  const columns = table.columns
    .filter((column) => column.only !== 'postgres')
    .map((column) => `${column.name} ${sqliteType[column.type]}${column.optional ? '' : ' NOT NULL'}`);
  const create =
    `CREATE TABLE ${table.name} (${columns.join(', ')}, PRIMARY KEY (${table.key.join(', ')}))` +
    `${table.rowid ? '' : ' WITHOUT ROWID'};`;
  const indexes = (table.indexes ?? []).map(
    (index) => `CREATE INDEX ${index.name} ON ${table.name} (${index.columns.join(', ')});`,
  );
  return [create, ...indexes].join('\n');
}

/** The schema of a new SQLite state: every core table as declared (declaredTables.ts adds the resources'). */
export const sqliteCoreSql = (): string => coreTables.map(sqliteTableSql).join('\n');
