/** A write that found a value it does not write (an object, a function): the caller hashes the plain way. */
export const NOT_SHAPED = -1;
/** A write that ran out of room in its buffer: the caller tries a larger one. */
export const NO_ROOM = -2;

const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];
/** JSON's short escapes of control characters (\b \t \n \f \r), by code. */
const SHORT_ESCAPE: Record<number, number> = { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 };

/** Writes `\uXXXX` (lowercase hex, as JSON.stringify) at b[p]. */
function writeEscape(code: number, b: Uint8Array, p: number): number {
  b[p++] = 92;
  b[p++] = 117;
  b[p++] = HEX[(code >> 12) & 15]!;
  b[p++] = HEX[(code >> 8) & 15]!;
  b[p++] = HEX[(code >> 4) & 15]!;
  b[p++] = HEX[code & 15]!;
  return p;
}

/** Writes the UTF-8 bytes of JSON.stringify(text) at b[p]: the new end, or NO_ROOM. */
export function writeJsonString(text: string, b: Uint8Array, p: number): number {
  const length = text.length;
  // Six bytes per character at most (an escape), and the quotes.
  if (p + 6 * length + 2 > b.length) return NO_ROOM;
  b[p++] = 34;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 32 && c < 128 && c !== 34 && c !== 92) {
      b[p++] = c;
    } else if (c < 128) {
      b[p++] = 92;
      if (c === 34 || c === 92) b[p++] = c;
      else if (SHORT_ESCAPE[c] !== undefined) b[p++] = SHORT_ESCAPE[c];
      else p = writeEscape(c, b, p - 1);
    } else if (c < 0x800) {
      b[p++] = 0xc0 | (c >> 6);
      b[p++] = 0x80 | (c & 63);
    } else if (c < 0xd800 || c > 0xdfff) {
      b[p++] = 0xe0 | (c >> 12);
      b[p++] = 0x80 | ((c >> 6) & 63);
      b[p++] = 0x80 | (c & 63);
    } else {
      const next = c < 0xdc00 && i + 1 < length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        const point = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        b[p++] = 0xf0 | (point >> 18);
        b[p++] = 0x80 | ((point >> 12) & 63);
        b[p++] = 0x80 | ((point >> 6) & 63);
        b[p++] = 0x80 | (point & 63);
        i++;
      } else {
        p = writeEscape(c, b, p); // a lone surrogate: JSON.stringify escapes it
      }
    }
  }
  b[p++] = 34;
  return p;
}

/** Writes the ASCII text of a number or literal at b[p]. */
function writeAscii(text: string, b: Uint8Array, p: number): number {
  if (p + text.length > b.length) return NO_ROOM;
  for (let i = 0; i < text.length; i++) b[p++] = text.charCodeAt(i);
  return p;
}

/**
 * Writes the UTF-8 bytes of canonicalJson(value) at b[p] for a leaf of a record: a string,
 * number, boolean, null or an array of those. The new end, NO_ROOM, or NOT_SHAPED for
 * anything else (an object, whose keys would need sorting).
 */
export function writeJsonLeaf(value: unknown, b: Uint8Array, p: number): number {
  if (typeof value === 'string') return writeJsonString(value, b, p);
  if (typeof value === 'number') return writeAscii(Number.isFinite(value) ? `${value}` : 'null', b, p);
  if (typeof value === 'boolean') return writeAscii(value ? 'true' : 'false', b, p);
  if (value === null) return writeAscii('null', b, p);
  if (!Array.isArray(value)) return NOT_SHAPED;
  if (p + 1 > b.length) return NO_ROOM;
  b[p++] = 91;
  for (let i = 0; i < value.length; i++) {
    if (i > 0) {
      if (p + 1 > b.length) return NO_ROOM;
      b[p++] = 44;
    }
    const item: unknown = value[i];
    p = item === undefined ? writeAscii('null', b, p) : writeJsonLeaf(item, b, p);
    if (p < 0) return p;
  }
  if (p + 1 > b.length) return NO_ROOM;
  b[p++] = 93;
  return p;
}
