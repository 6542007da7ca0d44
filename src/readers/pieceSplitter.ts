import type { RecordDelimiter } from './csvPiece.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Quotes in bytes[from, to): a record boundary lies only where the quotes before it are even (RFC 4180 quoting, as csv-parse requires). */
function quotesIn(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = bytes.indexOf(QUOTE, from); at !== -1 && at < to; at = bytes.indexOf(QUOTE, at + 1)) count++;
  return count;
}

/**
 * Where the record starting at `from` (a record boundary) ends, after its delimiter, and the
 * file's record delimiter, found as csv-parse finds it (the first line break outside quotes)
 * when not yet known; undefined while the bytes do not say.
 */
export function findRecordEnd(bytes: Buffer, from: number, known: RecordDelimiter | undefined, complete: boolean): { end: number; delimiter: RecordDelimiter } | undefined {
  let quoted = false;
  let delimiter = known;
  for (let at = from; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) quoted = !quoted;
    if (quoted || (byte !== LF && byte !== CR)) continue;
    if (!delimiter) {
      if (byte === CR && at + 1 === bytes.length && !complete) return undefined; // a CRLF split across reads
      delimiter = byte === LF ? '\n' : bytes[at + 1] === LF ? '\r\n' : '\r';
    }
    if (delimiter === '\r\n' ? byte === CR && bytes[at + 1] === LF : byte === delimiter.charCodeAt(0)) return { end: at + delimiter.length, delimiter };
  }
  return undefined;
}

/**
 * Cuts a file's bytes (CSV after its header, or NDJSON) into pieces of about `target` bytes that end at
 * record boundaries, so that each piece parses alone. A record with no boundary past `limit`
 * bytes ends the cutting: `overflowed`, and the caller parses the rest as one stream.
 */
export class PieceSplitter {
  /** The bytes after the last piece, in the reads they came in (joined only once they fill a piece). */
  private parts: Buffer[] = [];
  private size = 0;
  /** Quotes seen in pending[0, scanned). */
  private quotes = 0;
  private scanned = 0;
  overflowed = false;

  /** `quoting` false: the bytes are NDJSON lines (a quote never hides a line break there). */
  constructor(private readonly delimiter: RecordDelimiter, private readonly target: number, private readonly limit: number, private readonly quoting = true) {}

  /** The pieces these bytes complete (none while a piece is shorter than the target). */
  push(bytes: Buffer): Buffer[] {
    this.parts.push(bytes);
    this.size += bytes.length;
    if (this.size < this.target) return [];
    const pending = this.joined();
    if (this.quoting) this.quotes += quotesIn(pending, this.scanned, pending.length);
    this.scanned = pending.length;
    const end = this.lastBoundary(pending);
    if (end === undefined) {
      if (this.limit > 0 && pending.length > this.limit) this.overflowed = true;
      return [];
    }
    const rest = pending.subarray(end.at);
    this.parts = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    this.quotes = end.quotesAfter;
    this.scanned = rest.length;
    return [pending.subarray(0, end.at)];
  }

  /** What is left: the last piece (it may end without a delimiter), or the unsplit rest after an overflow. */
  end(): Buffer {
    const rest = this.joined();
    this.parts = [];
    this.size = 0;
    return rest;
  }

  private joined(): Buffer {
    if (this.parts.length !== 1) this.parts = [Buffer.concat(this.parts, this.size)];
    return this.parts[0]!;
  }

  /** The end of the last record delimiter outside quotes and the quotes after it, or undefined. */
  private lastBoundary(pending: Buffer): { at: number; quotesAfter: number } | undefined {
    const last = this.delimiter === '\r' ? CR : LF;
    let after = pending.length;
    let quotesAfter = 0;
    // (at > 0 before looking further back: a negative offset would search from the end again)
    for (let at = pending.lastIndexOf(last); at !== -1; at = at > 0 ? pending.lastIndexOf(last, at - 1) : -1) {
      if (this.quoting) quotesAfter += quotesIn(pending, at, after);
      after = at;
      if ((this.quotes - quotesAfter) % 2 !== 0) continue;
      if (this.delimiter === '\r\n' && pending[at - 1] !== CR) continue;
      return { at: at + 1, quotesAfter };
    }
    return undefined;
  }
}
