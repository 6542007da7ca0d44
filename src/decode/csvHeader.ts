import { parseCsvRows } from './csvRows.js';
import { inputSpec, openInput, type InputSpec } from './openInput.js';
import { checkedUtf8 } from './utf8Check.js';
import { PassThrough } from 'node:stream';

/** The first row of a CSV file (its header), or undefined when the file has none; reading stops there. */
export async function readCsvHeader(
  file: string | InputSpec,
  maxRecordBytes = 1024 * 1024,
): Promise<string[] | undefined> {
  const stream = openInput(typeof file === 'string' ? inputSpec(file, 'csv') : file, new PassThrough());
  try {
    for await (const batch of parseCsvRows(checkedUtf8(stream as AsyncIterable<Buffer>), maxRecordBytes)) {
      if (batch.rows.length > 0) return batch.rows[0];
      if (batch.done || batch.error) return undefined;
    }
    return undefined;
  } finally {
    stream.destroy();
  }
}
