import { isUtf8 } from 'node:buffer';

/** Bytes that are not UTF-8, found on `line`. */
export class InvalidUtf8Error extends Error {
  constructor(readonly line: number) {
    super(`invalid UTF-8 on line ${line}`);
  }
}

/** How many leading bytes form whole characters (a multi-byte one may straddle two chunks). */
function wholeCharacters(data: Buffer): number {
  for (let back = 1; back <= Math.min(3, data.length); back++) {
    const byte = data[data.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? data.length - back : data.length;
  }
  return data.length;
}

function countLines(data: Buffer): number {
  let count = 0;
  for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) count++;
  return count;
}

/** The first line of `data` (numbered from `first`) that is not valid UTF-8, and where it starts. */
function badLine(data: Buffer, first: number): { line: number; start: number } {
  let line = first;
  let start = 0;
  for (let end = data.indexOf(10); ; end = data.indexOf(10, start)) {
    const slice = data.subarray(start, end === -1 ? data.length : end);
    if (!isUtf8(slice) || end === -1) return { line, start };
    start = end + 1;
    line++;
  }
}

/** Passes bytes through, failing with the line number at the first sequence that is not UTF-8. */
export async function* checkedUtf8(bytes: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  let line = 1;
  for await (const chunk of bytes) {
    const data = carry && carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const cut = wholeCharacters(data);
    const head = data.subarray(0, cut);
    if (!isUtf8(head)) {
      const bad = badLine(head, line);
      if (bad.start > 0) yield head.subarray(0, bad.start); // the lines before it are still read
      throw new InvalidUtf8Error(bad.line);
    }
    line += countLines(head);
    carry = data.subarray(cut);
    if (head.length > 0) yield head;
  }
  if (carry && carry.length > 0) throw new InvalidUtf8Error(line);
}
