import type { RecordDelimiter } from '../fast/plainCsv.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Quotes in bytes[from, to): a record boundary lies only where the quotes before it are even (RFC 4180
 * quoting, as csv-parse requires).
 */
function quotesIn(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = bytes.indexOf(QUOTE, from); at !== -1 && at < to; at = bytes.indexOf(QUOTE, at + 1)) count++;
  return count;
}

/** How far a search for a record's end got: scanning resumes there when more bytes come. */
export interface RecordScan {
  at: number;
  quoted: boolean;
}

/**
 * Where the record starting at `from` (a record boundary) ends, after its delimiter, and the
 * file's record delimiter, found as csv-parse finds it (the first line break outside quotes)
 * when not yet known; undefined while the bytes do not say (`scan` then says how far it got).
 */
export function findRecordEnd(
  bytes: Buffer,
  from: number,
  known: RecordDelimiter | undefined,
  complete: boolean,
  scan: RecordScan = { at: from, quoted: false },
): { end: number; delimiter: RecordDelimiter } | undefined {
  let { quoted } = scan;
  let delimiter = known;
  let at = Math.max(from, scan.at);
  for (; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) quoted = !quoted;
    if (quoted || (byte !== LF && byte !== CR)) continue;
    if (!delimiter) {
      if (byte === CR && at + 1 === bytes.length && !complete) break; // a CRLF split across reads
      delimiter = byte === LF ? '\n' : bytes[at + 1] === LF ? '\r\n' : '\r';
    }
    if (delimiter === '\r\n' ? byte === CR && bytes[at + 1] === LF : byte === delimiter.charCodeAt(0))
      return { end: at + delimiter.length, delimiter };
    if (delimiter === '\r\n' && byte === CR && at + 1 === bytes.length && !complete) break;
  }
  scan.at = at;
  scan.quoted = quoted;
  return undefined;
}

/**
 * Cuts a file's bytes (CSV after its header, or NDJSON) into pieces of about `target` bytes that
 * end at record boundaries, so that each piece parses alone. Each read is searched once, as it
 * comes, for its last boundary; bytes are joined only into a piece. A record with no boundary past
 * `limit` bytes ends the cutting: `overflowed`, and the caller parses the rest as one stream.
 */
export class PieceSplitter {
  /** The bytes after the last piece, in the reads they came in. */
  private parts: Buffer[] = [];
  private size = 0;
  /** Quotes in the pending bytes, and in those after the last boundary. */
  private quotes = 0;
  private quotesAfterCut = 0;
  /** Where the last record boundary in the pending bytes ends (0: none yet). */
  private cut = 0;
  /** The last byte of the previous read: the CR a CRLF may start with. */
  private previous = -1;
  overflowed = false;

  /** `quoting` false: the bytes are NDJSON lines (a quote never hides a line break there). */
  constructor(
    private readonly delimiter: RecordDelimiter,
    private readonly target: number,
    private readonly limit: number,
    private readonly quoting = true,
  ) {}

  /** The pieces these bytes complete (none while a piece is shorter than the target). */
  push(bytes: Buffer): Buffer[] {
    if (bytes.length <= this.target) return this.pushRead(bytes);
    // A read longer than the target (256 KiB file reads) makes several pieces, not one piece of the whole read.
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += this.target) {
      // Overflowed: the caller reads everything pending as one stream, so the rest of the read only waits with it.
      if (this.overflowed) {
        this.parts.push(bytes.subarray(at));
        this.size += bytes.length - at;
        break;
      }
      pieces.push(...this.pushRead(bytes.subarray(at, at + this.target)));
    }
    return pieces;
  }

  private pushRead(bytes: Buffer): Buffer[] {
    if (bytes.length === 0) return [];
    this.search(bytes);
    this.parts.push(bytes);
    this.size += bytes.length;
    if (this.size < this.target) return [];
    if (this.cut === 0) {
      if (this.limit > 0 && this.size > this.limit) this.overflowed = true;
      return [];
    }
    return [this.take(this.cut)];
  }

  /** Everything left: the last piece (it may end without a delimiter), or the unsplit rest after an overflow. */
  end(): Buffer {
    return this.take(this.size);
  }

  /** The records left that are complete (up to the last boundary); the bytes of a record cut short are dropped. */
  complete(): Buffer {
    const records = this.take(this.cut);
    this.take(this.size);
    return records;
  }

  /** The first `length` pending bytes, joined; the rest stays pending. */
  private take(length: number): Buffer {
    const pending = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    const rest = pending.subarray(length);
    this.parts = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    this.quotes = length === this.cut ? this.quotesAfterCut : 0;
    this.quotesAfterCut = this.quotes;
    this.cut = 0;
    return pending.subarray(0, length);
  }

  /** Finds the last record boundary in a new read (the quotes before it even), counting its quotes. */
  private search(bytes: Buffer): void {
    const inRead = this.quoting ? quotesIn(bytes, 0, bytes.length) : 0;
    this.quotes += inRead;
    this.quotesAfterCut += inRead;
    const last = this.delimiter === '\r' ? CR : LF;
    let after = bytes.length;
    let quotesAfter = 0;
    // (at > 0 before looking further back: a negative offset would search from the end again)
    for (let at = bytes.lastIndexOf(last); at !== -1; at = at > 0 ? bytes.lastIndexOf(last, at - 1) : -1) {
      if (this.quoting) quotesAfter += quotesIn(bytes, at, after);
      after = at;
      if ((this.quotes - quotesAfter) % 2 !== 0) continue;
      if (this.delimiter === '\r\n' && (at > 0 ? bytes[at - 1] : this.previous) !== CR) continue;
      this.cut = this.size + at + 1;
      this.quotesAfterCut = quotesAfter;
      break;
    }
    this.previous = bytes[bytes.length - 1]!;
  }
}
