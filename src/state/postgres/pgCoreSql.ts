import { coreTables, type CoreColumnType, type CoreTable } from '../coreTables.js';

/** How PostgreSQL stores each kind of column: readable as it is (hex hashes, outcome words, times). */
const pgType: Record<CoreColumnType, string> = {
  text: 'TEXT',
  integer: 'INTEGER',
  hash: 'TEXT',
  flag: 'BOOLEAN',
  outcome: 'TEXT',
  instant: 'TIMESTAMPTZ',
  isoTime: 'TIMESTAMPTZ',
};

/**
 * The PostgreSQL DDL of one core table: the namespace of its service first (one database serves many),
 * then its first key column and, for an order's rows, the shard key (shards load only theirs).
 */
export function pgTableSql(table: CoreTable): string {
  const own = table.columns
    .filter((column) => column.only !== 'sqlite')
    .map((column) => `${column.name} ${pgType[column.type]}${column.optional ? '' : ' NOT NULL'}`);
  const columns = [
    'namespace TEXT NOT NULL',
    own[0],
    ...(table.sharded ? ['shard_key BIGINT NOT NULL'] : []),
    ...own.slice(1),
  ];
  return (
    `CREATE TABLE collect_${table.name} (${columns.join(', ')}, PRIMARY KEY (namespace, ` +
    `${table.key.join(', ')}));`
  );
}

/** The PostgreSQL state's core tables as declared in coreTables.ts. */
export const pgCoreSql = (): string =>
  coreTables
    .filter((table) => table.only !== 'sqlite')
    .map(pgTableSql)
    .join('\n');
