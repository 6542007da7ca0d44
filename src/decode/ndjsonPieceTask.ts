import type { Issue } from '../core/issue.js';
import type { RecordTaskOptions } from './inputHead.js';
import { checkRecord, type CheckedRecord } from '../check/checkRecord.js';
import { learnedHash } from '../fast/recordHash.js';
import { validatorOf } from '../fast/fastValidator.js';
import { registry } from '../resources/registry.js';
import { readNdjsonLine } from './ndjsonLine.js';
import { tooLarge } from './limitIssues.js';

/** How a worker reads and checks the pieces of an NDJSON file (cut after a line break). */
export interface NdjsonTaskOptions extends RecordTaskOptions {
  format: 'ndjson';
}

/** One record of a piece: its line (from the piece's first), its check, and with `values` its value and text. */
export interface NdjsonPieceRecord {
  line: number;
  checked: CheckedRecord;
  /** Undefined: it could not be read, or the reader asked for no values. */
  value?: unknown;
  /** Null: a line too long to keep. */
  text?: string | null;
}

/** The records of one piece, checked, in order; and the lines it spans. */
export interface NdjsonPiece {
  format: 'ndjson';
  records: NdjsonPieceRecord[];
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
    const piece: NdjsonPiece = { format: 'ndjson', records: [], lineCount: 0 };
    const add = (line: number, issues: Issue[], value: unknown, raw: string | null) => {
      const checked = checkRecord(resource, value, issues, check);
      piece.records.push(options.values ? { line, checked, value, text: raw } : { line, checked });
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
      piece.lineCount = line;
      if (options.maxRecordSize > 0 && size > options.maxRecordSize)
        add(line, [tooLarge(size, limits)], undefined, null);
      else if (content.trim() !== '') {
        const read = readNdjsonLine(content);
        add(line, read.issues, read.value, read.text);
      }
    }
    return piece;
  };
}
