import iconv from 'iconv-lite';

/** The encodings a CSV file may be read and written in (a mapping's `csv: encoding`). */
export type CsvEncoding = 'utf-8' | 'windows-1252' | 'latin1';

/**
 * Windows-1252's byte for each character, from the decoder that reads these files (csvDialect.ts; no
 * hand-written table).
 */
const WINDOWS_1252: ReadonlyMap<number, number> = new Map(
  [...iconv.decode(Buffer.from(Uint8Array.from({ length: 256 }, (_, byte) => byte)), 'windows-1252')].map(
    (character, byte) => [character.codePointAt(0)!, byte],
  ),
);

/** The byte of a character in a single-byte encoding, or undefined when it has none. */
function byteOf(code: number, encoding: Exclude<CsvEncoding, 'utf-8'>): number | undefined {
  if (encoding === 'latin1') return code <= 0xff ? code : undefined;
  return code < 0x80 ? code : WINDOWS_1252.get(code);
}

/** The first character of `text` that `encoding` cannot hold, or undefined when it holds them all. */
export function unencodable(text: string, encoding: CsvEncoding): string | undefined {
  if (encoding === 'utf-8') return undefined;
  for (const character of text)
    if (byteOf(character.codePointAt(0)!, encoding) === undefined) return character;
  return undefined;
}

/** `text` with every character `encoding` cannot hold written as `?` (what Excel does saving as "ANSI"). */
export function fitToEncoding(text: string, encoding: CsvEncoding): string {
  if (unencodable(text, encoding) === undefined) return text;
  let fitted = '';
  for (const character of text)
    fitted +=
      byteOf(character.codePointAt(0)!, encoding as Exclude<CsvEncoding, 'utf-8'>) === undefined
        ? '?'
        : character;
  return fitted;
}

/** The bytes of `text` in `encoding`; a character it cannot hold becomes `?` (check with `unencodable` first). */
export function encodeText(text: string, encoding: CsvEncoding): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  const bytes: number[] = [];
  for (const character of text) bytes.push(byteOf(character.codePointAt(0)!, encoding) ?? 0x3f);
  return Buffer.from(bytes);
}
