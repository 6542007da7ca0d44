import { checkRecord } from '../check/checkRecord.js';
import type { RecordTaskOptions } from './inputHead.js';
import { learnedHash } from '../fast/recordHash.js';
import { validatorOf } from '../fast/fastValidator.js';
import { registry } from '../resources/registry.js';
import { readSplitEvent } from './jsonRecords.js';
import { JsonSplitter } from './jsonSplitter.js';
import { lineBreaks } from '../parallel/jsonArraySplitter.js';
import { packRecords, type PackedRecords } from './packedRecords.js';
import type { PieceRecord } from './pieceRecords.js';

/** How a worker splits, reads and checks the pieces of a JSON array (cut between elements by the reader). */
export interface JsonTaskOptions extends RecordTaskOptions {
  format: 'json';
}

/** The records of one piece, packed, in order, and the line breaks it holds. */
export interface JsonPiece {
  format: 'json';
  packed: PackedRecords;
  lineCount: number;
}

/**
 * The work on each piece of a JSON array: split into its elements as on the reading thread (the
 * splitter taken up inside the array; at the input's last piece, told the end), each read, checked, digested.
 */
export function createJsonTask(options: JsonTaskOptions): (bytes: Buffer, last?: boolean) => JsonPiece {
  const resource = registry.get(options.endpoint)!;
  const check = {
    now: new Date(options.now),
    digest: options.digest,
    hashOf: learnedHash(resource.name),
    validatorOf,
  };
  const limits = { maxRecordBytes: options.maxRecordSize };
  return (bytes, last = false) => {
    const splitter = new JsonSplitter(options.maxRecordSize, { mode: 'array', line: 1 });
    const events = splitter.push(bytes.toString('utf8'));
    if (last) events.push(...splitter.end());
    const records = events.map((event): PieceRecord => {
      const { line, value, issues, text } = readSplitEvent(event, limits);
      const checked = checkRecord(resource, value, issues, check);
      if (!options.values) return { line, checked };
      const record: PieceRecord = { line, checked };
      if (value !== undefined) record.value = value;
      if (text !== undefined) record.text = text;
      return record;
    });
    return { format: 'json', packed: packRecords(records), lineCount: lineBreaks(bytes) };
  };
}
