import { PassThrough } from 'node:stream';
import { InputError } from '../core/errors.js';
import { parseCsvRows } from './csvRows.js';
import { inputSpec, openInput } from './openInput.js';
import { checkedUtf8 } from './utf8Check.js';

/** The header and the first `rows` rows of a CSV file (for `map init`); reading stops there. */
export async function sampleCsv(path: string, rows = 200): Promise<{ header: string[]; rows: string[][] }> {
  const stream = openInput(inputSpec(path, 'csv'), new PassThrough());
  const all: string[][] = [];
  try {
    for await (const batch of parseCsvRows(checkedUtf8(stream as AsyncIterable<Buffer>), 1024 * 1024)) {
      all.push(...batch.rows);
      if (all.length > rows || batch.done || batch.error) break;
    }
  } catch (cause) {
    throw new InputError(
      `${path}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`,
      'check the path of the export',
    );
  } finally {
    stream.destroy();
  }
  const [header = [], ...data] = all;
  return { header, rows: data.slice(0, rows) };
}
