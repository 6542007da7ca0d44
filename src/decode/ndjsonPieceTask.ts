import type { Issue } from '../core/issue.js';
import type { RecordTaskOptions } from './inputHead.js';
import { checkRecord } from '../check/checkRecord.js';
import { learnedHash } from '../fast/recordHash.js';
import { validatorOf } from '../fast/fastValidator.js';
import { registry } from '../resources/registry.js';
import { readNdjsonLine } from './ndjsonLine.js';
import { tooLarge } from './limitIssues.js';
import { packRecords, type PackedRecords } from './packedRecords.js';
import type { PieceRecord } from './pieceRecords.js';

/** How a worker reads and checks the pieces of an NDJSON file (cut after a line break). */
export interface NdjsonTaskOptions extends RecordTaskOptions {
  format: 'ndjson';
}

/** The records of one piece, checked, packed, in order; and the lines it spans. */
export interface NdjsonPiece {
  format: 'ndjson';
  packed: PackedRecords;
  lineCount: number;
}

/**
 * The work on each piece of an NDJSON file: every line that is not blank read, checked against its endpoint,
 * digested.
 */
export function createNdjsonTask(options: NdjsonTaskOptions): (bytes: Buffer) => NdjsonPiece {
  const resource = registry.get(options.endpoint)!;
  const check = {
    now: new Date(options.now),
    digest: options.digest,
    hashOf: learnedHash(resource.name),
    validatorOf,
  };
  const limits = { maxRecordBytes: options.maxRecordSize };
  return (bytes) => {
    const text = bytes.toString('utf8');
    const records: PieceRecord[] = [];
    let lineCount = 0;
    const add = (line: number, issues: Issue[], value: unknown, raw: string | null) => {
      const checked = checkRecord(resource, value, issues, check);
      records.push(options.values ? { line, checked, value, text: raw } : { line, checked });
    };
    let start = 0;
    for (let line = 1; start < text.length; line++) {
      const end = text.indexOf('\n', start);
      const stop = end === -1 ? text.length : end;
      const content =
        text.charCodeAt(stop - 1) === 13 && stop > start
          ? text.slice(start, stop - 1)
          : text.slice(start, stop);
      const size = stop - start;
      start = stop + 1;
      lineCount = line;
      if (options.maxRecordSize > 0 && size > options.maxRecordSize)
        add(line, [tooLarge(size, limits)], undefined, null);
      else if (content.trim() !== '') {
        const read = readNdjsonLine(content);
        add(line, read.issues, read.value, read.text);
      }
    }
    return { format: 'ndjson', packed: packRecords(records), lineCount };
  };
}
