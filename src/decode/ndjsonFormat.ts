import { createInterface } from 'node:readline';
import { decodeUtf8 } from './decodeUtf8.js';
import type { ObjectRow, RecordsReader } from './formatReader.js';
import { readNdjsonPieces } from './ndjsonPieces.js';
import { readNdjsonRecords } from './ndjsonRecords.js';
import { checkedUtf8 } from './utf8Check.js';

/** NDJSON (JSON Lines): one record a line, cut after line breaks for the workers. */
export const ndjsonFormat: RecordsReader = {
  shape: 'records',
  records({ spec, stream, limits, check }) {
    const bytes = checkedUtf8(stream as AsyncIterable<Buffer>);
    return check
      ? readNdjsonPieces(bytes, spec.name, limits, check)
      : readNdjsonRecords(decodeUtf8(bytes), spec.name, limits);
  },
  async *objects(_spec, stream): AsyncGenerator<ObjectRow> {
    let line = 0;
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      line += 1;
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        yield { line, problem: 'not valid JSON' };
        continue;
      }
      yield { line, value };
    }
  },
};
