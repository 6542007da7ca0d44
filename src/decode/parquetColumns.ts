import type { FileMetaData, SchemaTree } from 'hyparquet';

/**
 * A column of a Parquet file as a CSV column: its dotted name (a struct's fields flattened), its path,
 * whether it holds dates.
 */
export interface ParquetColumn {
  name: string;
  path: string[];
  date: boolean;
}

/** The file's columns, in order: each leaf, a struct's fields as `customer.email`; a list or map stays one column. */
export function parquetColumns(schema: SchemaTree): ParquetColumn[] {
  const columns: ParquetColumn[] = [];
  const visit = (node: SchemaTree, path: string[]) => {
    const { element } = node;
    const nested = element.converted_type === 'LIST' || element.converted_type === 'MAP';
    if (node.children.length > 0 && !nested) {
      for (const child of node.children) visit(child, [...path, child.element.name]);
      return;
    }
    const date = element.converted_type === 'DATE' || element.logical_type?.type === 'DATE';
    columns.push({ name: path.join('.'), path, date });
  };
  for (const child of schema.children) visit(child, [child.element.name]);
  return columns;
}

/** The first row (0-based) of each row group, and the row after its last. */
export function rowGroupRanges(metadata: FileMetaData): { rowStart: number; rowEnd: number }[] {
  let rowStart = 0;
  return metadata.row_groups.map((group) => {
    const rowEnd = rowStart + Number(group.num_rows);
    const range = { rowStart, rowEnd };
    rowStart = rowEnd;
    return range;
  });
}

const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * A value as a CSV cell holds it, so the row reads as the same row in CSV would: null is an empty
 * (absent) cell, a number its exact text, a TIMESTAMP the ISO 8601 UTC datetime, a DATE its day.
 */
export function cellOf(value: unknown, date: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Date)
    // Whole seconds as the service writes them (2024-03-01T10:00:00Z); a fraction kept when there is one.
    return Number.isNaN(value.getTime())
      ? ''
      : date
        ? value.toISOString().slice(0, 10)
        : value.toISOString().replace('.000Z', 'Z');
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (typeof value === 'object') return JSON.stringify(value, bigints);
  return String(value as number | bigint | boolean);
}

/** A row (hyparquet's object) as cells in the columns' order. */
export function cellsOf(row: Record<string, unknown>, columns: readonly ParquetColumn[]): string[] {
  return columns.map(({ path, date }) => {
    let value: unknown = row;
    for (const key of path) value = (value as Record<string, unknown> | null | undefined)?.[key];
    return cellOf(value, date);
  });
}
