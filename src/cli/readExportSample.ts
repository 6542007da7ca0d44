import { PassThrough } from 'node:stream';
import { InputError } from '../core/errors.js';
import { inputSpec, openInput } from '../decode/openInput.js';
import { sampleExport, type ExportSample } from '../mapping/exportDialect.js';

/** Bytes of an export read for `map init`: enough for 200 rows of any real export. */
const SAMPLE_BYTES = 256 * 1024;

/** The first bytes of an export file (gzip read through), its dialect detected, header and first rows read. */
export async function readExportSample(path: string): Promise<ExportSample> {
  const stream = openInput(inputSpec(path, 'csv'), new PassThrough());
  const chunks: Buffer[] = [];
  let total = 0;
  let complete = true;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= SAMPLE_BYTES) {
        complete = false;
        break;
      }
    }
  } catch (cause) {
    throw new InputError(
      `${path}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`,
      'check the path of the export',
    );
  } finally {
    stream.destroy();
  }
  return sampleExport(Buffer.concat(chunks), complete);
}
