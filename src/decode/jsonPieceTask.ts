import { checkRecord, type CheckedRecord } from '../check/checkRecord.js';
import { learnedHash } from '../fast/recordHash.js';
import { registry } from '../resources/registry.js';
import { readJsonElement } from './jsonRecords.js';

/** How a worker reads and checks the elements of a JSON array, cut out by the reading thread. */
export interface JsonTaskOptions {
  format: 'json';
  maxRecordSize: number;
  /** The endpoint whose schema and checks the records are held to, and the run's clock in milliseconds. */
  endpoint: string;
  now: number;
  /** False: values are not sent back (the reader needs only issues, order ids and digests). */
  values: boolean;
  /** False: the run needs only order ids and issues (no flow facts, no hash). */
  digest: boolean;
}

/** One element read and checked; `keepsText` false: its text is not the record's raw form (it nests too deep). */
export interface JsonPieceRecord {
  checked: CheckedRecord;
  value?: unknown;
  keepsText: boolean;
}

/** The elements of one piece, read and checked, in order. */
export interface JsonPiece {
  format: 'json';
  records: JsonPieceRecord[];
}

/** A piece of elements as bytes: their count, each one's length in UTF-16 code units, then their texts. */
export function encodeJsonPiece(texts: readonly string[]): Buffer {
  const body = Buffer.from(texts.join(''), 'utf8');
  const piece = Buffer.allocUnsafe(4 * (texts.length + 1) + body.length);
  piece.writeUInt32LE(texts.length, 0);
  texts.forEach((text, n) => piece.writeUInt32LE(text.length, 4 * (n + 1)));
  body.copy(piece, 4 * (texts.length + 1));
  return piece;
}

function decodeJsonPiece(bytes: Buffer): string[] {
  const count = bytes.readUInt32LE(0);
  const text = bytes.toString('utf8', 4 * (count + 1));
  const texts: string[] = [];
  for (let n = 0, at = 0; n < count; n++) {
    const length = bytes.readUInt32LE(4 * (n + 1));
    texts.push(text.slice(at, at + length));
    at += length;
  }
  return texts;
}

/** The work on each piece of a JSON array: every element read, checked against its endpoint, digested. */
export function createJsonTask(options: JsonTaskOptions): (bytes: Buffer) => JsonPiece {
  const resource = registry.get(options.endpoint)!;
  const check = { now: new Date(options.now), digest: options.digest, hashOf: learnedHash(resource.name) };
  return (bytes) => {
    const records = decodeJsonPiece(bytes).map((text): JsonPieceRecord => {
      const read = readJsonElement(text);
      const checked = checkRecord(resource, read.value, read.issues, check);
      return options.values && read.value !== undefined ? { checked, value: read.value, keepsText: read.keepsText } : { checked, keepsText: read.keepsText };
    });
    return { format: 'json', records };
  };
}
