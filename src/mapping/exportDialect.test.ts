import { describe, expect, it } from 'vitest';
import { detectDelimiter, detectEncoding, sampleExport } from './exportDialect.js';

/** Windows-1252 bytes of a text of Latin-1 characters (what Excel writes in Brazil and Europe). */
const cp1252 = (text: string) => Uint8Array.from([...text].map((char) => char.charCodeAt(0)));

describe('exportDialect', () => {
  it('tells UTF-8 from Windows-1252 by the bytes', () => {
    expect(detectEncoding(Buffer.from('Nome;Cidade\nJoão;São Paulo\n', 'utf8'))).toBe('utf-8');
    expect(detectEncoding(cp1252('Nome;Cidade\nJoão;São Paulo\n'))).toBe('windows-1252');
    // A multi-byte character cut by the sample's end is still UTF-8.
    expect(detectEncoding(Buffer.from('a,b\nã', 'utf8').subarray(0, 5))).toBe('utf-8');
  });
  it('takes the delimiter the header uses most, outside quotes', () => {
    expect(detectDelimiter('Name;Email;"Total, gross";Created at')).toBe(';');
    expect(detectDelimiter('Name\tEmail\tTotal')).toBe('\t');
    expect(detectDelimiter('"Name;x",Email,Total')).toBe(',');
    expect(detectDelimiter('Name')).toBe(',');
  });
  it('reads a ;-separated Windows-1252 export into its header and rows', () => {
    const sample = sampleExport(cp1252('Nome;Endereço;Total\r\nJoão;"Rua Augusta; 1500";259,90\r\n'), true);
    expect(sample).toEqual({
      dialect: { delimiter: ';', encoding: 'windows-1252' },
      header: ['Nome', 'Endereço', 'Total'],
      rows: [['João', 'Rua Augusta; 1500', '259,90']],
    });
  });
  it('drops a row cut by the end of an incomplete sample, and a byte order mark', () => {
    const sample = sampleExport(Buffer.from('\uFEFFa,b\n1,2\n3,4', 'utf8'), false);
    expect(sample.header).toEqual(['a', 'b']);
    expect(sample.rows).toEqual([['1', '2']]);
  });
});
