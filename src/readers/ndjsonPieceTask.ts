import type { Issue } from '../core/issue.js';
import { contentHash } from '../flow/canonical.js';
import { isRecord } from '../schema/checks.js';
import { registry } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { validateRecord } from '../validate/validateRecord.js';
import { readNdjsonLine } from './ndjsonLine.js';
import { tooLarge } from './limitIssues.js';

/** How a worker reads and checks the pieces of an NDJSON file (cut after a line break). */
export interface NdjsonTaskOptions {
  format: 'ndjson';
  maxRecordSize: number;
  /** The endpoint whose schema and checks the records are held to, and the run's clock in milliseconds. */
  endpoint: string;
  now: number;
  /** False: values and texts are not sent back (the reader needs only lines, issues, order ids and digests). */
  values: boolean;
}

/** The records of one piece, checked: by position, their lines (from the piece's first), issues, order ids and digests. */
export interface NdjsonPiece {
  format: 'ndjson';
  lines: number[];
  /** Every problem of the records that have any (reading, schema, checks), by position. */
  issues: { at: number; issues: Issue[] }[];
  orderIds: string[];
  facts: (Facts | null)[];
  hashes: string[];
  /** With `values`: each record's value (undefined: it could not be read) and text (null: a line too long to keep). */
  values?: unknown[];
  texts?: (string | null)[];
  lineCount: number;
}

/** The work on each piece of an NDJSON file: every line that is not blank read, checked against its endpoint, digested. */
export function createNdjsonTask(options: NdjsonTaskOptions): (bytes: Buffer) => NdjsonPiece {
  const resource = registry.get(options.endpoint)!;
  const context = { now: new Date(options.now) };
  const limits = { maxRecordBytes: options.maxRecordSize };
  return (bytes) => {
    const text = bytes.toString('utf8');
    const piece: NdjsonPiece = { format: 'ndjson', lines: [], issues: [], orderIds: [], facts: [], hashes: [], lineCount: 0 };
    const values: unknown[] = [];
    const texts: (string | null)[] = [];
    const add = (line: number, issues: Issue[], value: unknown, raw: string | null) => {
      const facts = isRecord(value) ? resource.facts(value) : null;
      const id = isRecord(value) ? value[resource.orderField] : undefined;
      if (issues.length > 0) piece.issues.push({ at: piece.lines.length, issues });
      piece.lines.push(line);
      piece.orderIds.push(typeof id === 'string' ? id : '');
      piece.facts.push(facts);
      piece.hashes.push(facts ? contentHash(resource.name, value) : '');
      if (!options.values) return;
      values.push(value);
      texts.push(raw);
    };
    let start = 0;
    for (let line = 1; start < text.length; line++) {
      const end = text.indexOf('\n', start);
      const stop = end === -1 ? text.length : end;
      const content = text.charCodeAt(stop - 1) === 13 && stop > start ? text.slice(start, stop - 1) : text.slice(start, stop);
      const size = stop - start;
      start = stop + 1;
      piece.lineCount = line;
      if (options.maxRecordSize > 0 && size > options.maxRecordSize) add(line, [tooLarge(size, limits)], undefined, null);
      else if (content.trim() !== '') {
        const read = readNdjsonLine(content);
        add(line, read.value === undefined ? read.issues : validateRecord(resource, read.value, context, read.issues), read.value, read.text);
      }
    }
    if (options.values) {
      piece.values = values;
      piece.texts = texts;
    }
    return piece;
  };
}
