import type { InputFormat } from './formatName.js';
import { inputFormats } from './inputFormats.js';
import { inputSpec, openInput, type InputSpec } from './openInput.js';
import { PassThrough } from 'node:stream';

/** The format a file of rows is read in: its name's (Parquet), else CSV whatever it is named (an export's .txt). */
function rowsFormat(name: string, given: InputFormat): InputFormat {
  try {
    const { format } = inputSpec(name);
    return format === 'parquet' ? format : given;
  } catch {
    return given;
  }
}

/**
 * The first row of a file of rows (CSV, Parquet: its header), or undefined when the file has none; reading
 * stops there.
 */
export async function readCsvHeader(
  file: string | InputSpec,
  maxRecordBytes = 1024 * 1024,
): Promise<string[] | undefined> {
  const named = typeof file === 'string' ? inputSpec(file, 'csv') : file;
  const spec = { ...named, format: rowsFormat(named.name, named.format) };
  const reader = await inputFormats[spec.format].load();
  if (reader.shape !== 'rows') return undefined;
  const stream = openInput(spec, new PassThrough());
  try {
    const context = { spec, stream, limits: { maxRecordBytes }, check: undefined };
    for await (const batch of reader.rows(context)()) {
      if (batch.rows.length > 0) return batch.rows[0];
      if (batch.done || batch.error) return undefined;
    }
    return undefined;
  } finally {
    stream.destroy();
  }
}
