import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import type { ColumnMap } from '../convert/csvColumns.js';

/** Reads `--map FILE`: a JSON object of target field path -> source column name. */
export async function readColumnMap(path: string): Promise<ColumnMap> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new UsageError(`--map ${path}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, 'check the path of the map file');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new UsageError(`--map ${path}: not valid JSON (${(cause as Error).message})`, 'write it as {"target.field.path": "source column"}');
  }
  const valid = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((v) => typeof v === 'string');
  if (!valid) throw new UsageError(`--map ${path}: must be a JSON object whose values are column names`, 'write it as {"order_id": "Order Number", "status": "State"}');
  return parsed as ColumnMap;
}
