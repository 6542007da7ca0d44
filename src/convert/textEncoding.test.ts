import { describe, expect, it } from 'vitest';
import { encodeText, fitToEncoding, unencodable } from './textEncoding.js';
import { csvLine } from './csvLine.js';

describe("text in a CSV file's encoding", () => {
  it('writes back every byte exactly as the reader decoded it (the platform decoder, as csvDialect.ts reads)', () => {
    const every = Uint8Array.from({ length: 256 }, (_, byte) => byte);
    expect(encodeText(new TextDecoder('windows-1252').decode(every), 'windows-1252')).toEqual(
      Buffer.from(every),
    );
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
