import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../core/errors.js';
import type { ColumnMap } from '../convert/csvColumns.js';
import type { Resource } from '../resources/resource.js';
import { readCsvRecords } from './csvRecords.js';
import { readJsonRecords } from './jsonRecords.js';
import { readNdjsonRecords } from './ndjsonRecords.js';
import { openInput, type InputSpec } from './openInput.js';
import type { SourceRecord } from './sourceRecord.js';

async function* decode(bytes: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of bytes) yield decoder.write(chunk as Buffer);
  const rest = decoder.end();
  if (rest) yield rest;
}

/** Every record of one input, in order, with its location; decoding failures become an InputError. */
export async function* readRecords(spec: InputSpec, resource: Resource, stdin: Readable, map?: ColumnMap): AsyncGenerator<SourceRecord> {
  const bytes = openInput(spec, stdin);
  try {
    if (spec.format === 'csv') yield* readCsvRecords(bytes as AsyncIterable<Buffer>, spec.name, { schema: resource.schema, ...(map ? { map } : {}) });
    else if (spec.format === 'ndjson') yield* readNdjsonRecords(decode(bytes), spec.name);
    else yield* readJsonRecords(decode(bytes), spec.name);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw cause;
    const gzip = spec.gzip && code.startsWith('Z_');
    throw new InputError(
      gzip ? `${spec.name}: not a valid gzip stream (${(cause as Error).message})` : `${spec.name}: cannot be read (${(cause as Error).message})`,
      gzip ? 'check that the file is complete and really gzip-compressed' : 'check the file',
    );
  } finally {
    bytes.destroy();
  }
}
