const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  LF = 0x0a;
const OPEN_BRACE = 0x7b,
  CLOSE_BRACE = 0x7d,
  OPEN_BRACKET = 0x5b,
  CLOSE_BRACKET = 0x5d;

/** Line breaks in some bytes (a UTF-8 line break is that byte alone). */
export function lineBreaks(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) count++;
  return count;
}

/**
 * Where a JSON array's elements start, after its opening bracket (and whatever precedes it: blanks,
 * a byte order mark); -1 when the document does not start with an array.
 */
export function arrayStart(bytes: Buffer): number {
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === 0x20 || byte === 0x09 || byte === LF || byte === 0x0d) continue;
    if (byte === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf) {
      at += 2;
      continue;
    }
    return byte === OPEN_BRACKET ? at + 1 : -1;
  }
  return -1;
}

/**
 * Cuts the bytes of a JSON array, after its opening bracket, into pieces of about `target` bytes
 * that end between two elements (after a comma, or a bracket or brace closing an element), so that
 * each piece splits alone (decode/jsonSplitter.ts, resumed inside the array). It knows only strings,
 * escapes and nesting, byte by byte: no text is decoded here. The piece that holds the array's
 * closing bracket ends with it: `closed`, and what follows is the caller's (`end()`). An element
 * with no end past `limit` bytes stops the cutting: `overflowed`, and the caller reads the rest.
 */
export class JsonArraySplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** Where the last cut point in the pending bytes is (0: none yet). */
  private cut = 0;
  private depth = 1;
  private inString = false;
  private escaped = false;
  closed = false;
  overflowed = false;
  /** The last piece is read knowing it is the last: a truncated array is reported there. */
  readonly tellsEnd = true;

  constructor(
    private readonly target: number,
    private readonly limit: number,
  ) {}

  /** The pieces these bytes complete (none while a piece is shorter than the target). */
  push(bytes: Buffer): Buffer[] {
    const pieces: Buffer[] = [];
    // A read longer than the target makes several pieces, not one of the whole read.
    for (let at = 0; at < bytes.length; at += this.target) {
      const read = bytes.subarray(at, at + this.target);
      if (this.closed || this.overflowed) {
        this.parts.push(read);
        this.size += read.length;
        continue;
      }
      const closedAt = this.scan(read);
      this.parts.push(read);
      this.size += read.length;
      if (closedAt >= 0) pieces.push(this.take(closedAt));
      else if (this.size >= this.target && this.cut > 0) pieces.push(this.take(this.cut));
      else if (this.cut === 0 && this.limit > 0 && this.size > this.limit) this.overflowed = true;
    }
    return pieces;
  }

  /** Everything pending: the last piece; or, closed or overflowed, the bytes the caller reads itself. */
  end(): Buffer {
    return this.take(this.size);
  }

  /** The pending elements that are complete (up to the last cut point); the bytes after it are dropped. */
  complete(): Buffer {
    const elements = this.take(this.cut);
    this.take(this.size);
    return elements;
  }

  /** The first `length` pending bytes, joined; the rest stays pending. */
  private take(length: number): Buffer {
    const pending = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    const rest = pending.subarray(length);
    this.parts = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    this.cut = 0;
    return pending.subarray(0, length);
  }

  /**
   * Follows strings and nesting through a read, noting the last cut point; where the array closes, the
   * pending size after it (else -1).
   */
  private scan(bytes: Buffer): number {
    let { depth, inString } = this;
    const n = bytes.length;
    // An escape at the end of the previous read escapes this read's first byte.
    let at = this.escaped ? 1 : 0;
    this.escaped = false;
    for (; at < n; at++) {
      if (inString) {
        // A string's body in a tight loop: most of an order's bytes are in strings.
        while (at < n) {
          const byte = bytes[at]!;
          if (byte === QUOTE) break;
          at += byte === BACKSLASH ? 2 : 1;
        }
        if (at >= n) {
          this.escaped = at > n;
          break;
        }
        inString = false;
        continue;
      }
      const byte = bytes[at]!;
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          [this.depth, this.inString, this.closed] = [0, false, true];
          return this.size + at + 1;
        }
        if (depth === 1) this.cut = this.size + at + 1;
      } else if (byte === COMMA && depth === 1) this.cut = this.size + at + 1;
    }
    [this.depth, this.inString] = [depth, inString];
    return -1;
  }
}
