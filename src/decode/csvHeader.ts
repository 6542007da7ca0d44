import { parseCsvRows } from './csvRows.js';
import { inputSpec, openInput, type InputSpec } from './openInput.js';
import { csvBytes } from './csvDialect.js';
import { PassThrough } from 'node:stream';

/** The first row of a CSV file (its header), or undefined when the file has none; reading stops there. */
export async function readCsvHeader(
  file: string | InputSpec,
  maxRecordBytes = 1024 * 1024,
): Promise<string[] | undefined> {
  const spec = typeof file === 'string' ? inputSpec(file, 'csv') : file;
  const stream = openInput(spec, new PassThrough());
  try {
    for await (const batch of parseCsvRows(
      csvBytes(stream as AsyncIterable<Buffer>, spec.csv),
      maxRecordBytes,
    )) {
      if (batch.rows.length > 0) return batch.rows[0];
      if (batch.done || batch.error) return undefined;
    }
    return undefined;
  } finally {
    stream.destroy();
  }
}
