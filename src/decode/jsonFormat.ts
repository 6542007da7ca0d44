import { decodeUtf8 } from './decodeUtf8.js';
import type { RecordsReader } from './formatReader.js';
import { readJsonPieces } from './jsonPieces.js';
import { readJsonRecords } from './jsonRecords.js';
import { checkedUtf8 } from './utf8Check.js';

/** Whether a large JSON array is decoded and checked on the piece workers (COLLECT_JSON_WORKERS=0: on this thread). */
const jsonOnWorkers = process.env.COLLECT_JSON_WORKERS !== '0';

/** A JSON document: an array of records (cut between its elements for the workers) or one record. */
export const jsonFormat: RecordsReader = {
  shape: 'records',
  records({ spec, stream, limits, check }) {
    const bytes = checkedUtf8(stream as AsyncIterable<Buffer>);
    // On a saturated machine the workers cost more than they save (docs: "JSON arrays on the workers"): a switch.
    return check && jsonOnWorkers
      ? readJsonPieces(bytes, spec.name, limits, check)
      : readJsonRecords(decodeUtf8(bytes), spec.name, limits);
  },
};
