import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { encodeText, fitToEncoding, unencodable } from './textEncoding.js';
import { csvLine } from './csvLine.js';

describe("text in a CSV file's encoding", () => {
  it('writes back every byte exactly as the reader decoded it (iconv-lite, as csvDialect.ts reads)', () => {
    const every = Uint8Array.from({ length: 256 }, (_, byte) => byte);
    // The five bytes Windows-1252 leaves undefined read as U+FFFD: no export holds them.
    const defined = Buffer.from(every.filter((byte) => ![0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(byte)));
    expect(encodeText(iconv.decode(defined, 'windows-1252'), 'windows-1252')).toEqual(defined);
    expect(iconv.decode(Buffer.from([0x80, 0x93, 0x94, 0x96]), 'windows-1252')).toBe('€“”–');
    // Node 20's TextDecoder, called without { stream: true }, reads these as C1 controls: € was written as ?.
    expect(encodeText('€“”–', 'windows-1252')).toEqual(Buffer.from([0x80, 0x93, 0x94, 0x96]));
    expect(encodeText(Buffer.from(every).toString('latin1'), 'latin1')).toEqual(Buffer.from(every));
    expect(encodeText('São Gonçalves ×', 'windows-1252')).toEqual(Buffer.from('São Gonçalves ×', 'latin1'));
  });

  it('names the first character an encoding cannot hold, and writes such characters as ?', () => {
    expect(unencodable('São Paulo', 'windows-1252')).toBeUndefined();
    expect(unencodable('orders_東京.csv', 'windows-1252')).toBe('東');
    expect(unencodable('€', 'latin1')).toBe('€');
    expect(unencodable('Σ', 'windows-1252')).toBe('Σ');
    expect(unencodable('東京', 'utf-8')).toBeUndefined();
    expect(fitToEncoding('orders_東京 Σ.csv', 'windows-1252')).toBe('orders_?? ?.csv');
  });

  it("quotes a cell holding the dialect's delimiter or quote", () => {
    expect(csvLine(['Chaveiro; Metal', 'a,b', 'Boné "x"'], { delimiter: ';' })).toBe(
      '"Chaveiro; Metal";a,b;"Boné ""x"""',
    );
    expect(csvLine(["it's", 'a|b'], { delimiter: '|', quote: "'" })).toBe("'it''s'|'a|b'");
  });
});
