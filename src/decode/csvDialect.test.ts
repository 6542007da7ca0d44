import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvBytes, DialectRewriter, wrongDelimiter } from './csvDialect.js';
import { InvalidUtf8Error } from './utf8Check.js';

async function* chunks(...parts: Buffer[]) {
  for (const part of parts) yield part;
}

async function text(bytes: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of bytes) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

/** The rewriter fed one character at a time: state carries over every boundary. */
function byCharacters(source: string, delimiter: string, quote: string): string {
  const rewriter = new DialectRewriter(delimiter, quote);
  return [...source].map((c) => rewriter.push(c)).join('') + rewriter.end();
}

describe('csvBytes', () => {
  it('rewrites ";" CSV into "," CSV that parses to the same cells, every line break where it was', () => {
    const source = 'a;b;c\r\n"x;1";"he said ""hi""";Rua Augusta, 1500\r\n;"two\nlines";\r\n\r\nlast;"q";\r\n';
    const expected = parse(source, { delimiter: ';', relax_column_count: true });
    for (const out of [byCharacters(source, ';', '"'), new DialectRewriter(';', '"').push(source)]) {
      expect(parse(out, { relax_column_count: true })).toEqual(expected);
      expect(out.split('\n').length).toBe(source.split('\n').length);
    }
    expect(byCharacters("a|'it''s, ok'|c\n", '|', "'")).toBe('a,"it\'s, ok",c\n');
  });

  it('gives the same cells and line count for any ";" text, however it is cut into reads', () => {
    const cells = fc.array(fc.array(fc.stringMatching(/^[a;,"\n é]{0,6}$/), { minLength: 1, maxLength: 4 }), {
      minLength: 1,
      maxLength: 5,
    });
    fc.assert(
      fc.property(cells, fc.array(fc.nat(), { maxLength: 6 }), (rows, cuts) => {
        const source = rows
          .map((row) =>
            row
              .map((cell) => (/[;"\n]/.test(cell) || cell === '' ? `"${cell.replaceAll('"', '""')}"` : cell))
              .join(';'),
          )
          .join('\n');
        const rewriter = new DialectRewriter(';', '"');
        const at = [...new Set(cuts.map((cut) => cut % (source.length + 1)))].sort((a, b) => a - b);
        const parts = [0, ...at, source.length]
          .slice(1)
          .map((end, n, ends) => source.slice(n === 0 ? 0 : ends[n - 1], end));
        const out = parts.map((part) => rewriter.push(part)).join('') + rewriter.end();
        expect(parse(out, { relax_column_count: true })).toEqual(
          parse(source, { delimiter: ';', relax_column_count: true }),
        );
        expect(out.split('\n').length).toBe(source.split('\n').length);
      }),
    );
  });

  it('leaves an unclosed quote unclosed, for the reader to report at its line', () => {
    expect(byCharacters('a;"open\nmore', ';', '"')).toBe('a,"open\nmore');
  });

  it('decodes Windows-1252 and latin1, and UTF-8 split inside a character, as text', async () => {
    const cp1252 = Buffer.from([0x53, 0xe3, 0x6f, 0x3b, 0x80, 0x0a]);
    expect(await text(csvBytes(chunks(cp1252), { delimiter: ';', encoding: 'windows-1252' }))).toBe(
      'São,€\n',
    );
    expect(await text(csvBytes(chunks(cp1252), { encoding: 'latin1' }))).toBe('São;\u0080\n');
    const utf8 = Buffer.from('São;Gonçalves\n');
    expect(await text(csvBytes(chunks(utf8.subarray(0, 2), utf8.subarray(2)), { delimiter: ';' }))).toBe(
      'São,Gonçalves\n',
    );
  });

  it('still refuses bytes that are not UTF-8 when the file says UTF-8', async () => {
    await expect(
      text(csvBytes(chunks(Buffer.from([0x61, 0x3b, 0xe3, 0x0a])), { delimiter: ';' })),
    ).rejects.toThrow(InvalidUtf8Error);
  });
});

describe('wrongDelimiter', () => {
  it('names both delimiters when the header holds the other and not this one', () => {
    expect(wrongDelimiter(['Name;Email;Total'], undefined)).toBe(
      'its header holds ";" and no ",": it looks ";"-separated, but is read as ","-separated',
    );
    expect(wrongDelimiter(['Name,Email'], { delimiter: ';' })).toMatch(/holds "," and no ";"/);
    expect(wrongDelimiter(['Name', 'Email'], undefined)).toBeUndefined();
    expect(wrongDelimiter(['Name'], undefined)).toBeUndefined();
  });
});
