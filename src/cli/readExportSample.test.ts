import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readExportSample } from './readExportSample.js';
import { tempDir } from '../../test/helpers/tempDir.js';

describe('readExportSample', () => {
  it(
    "reads an Excel export's `;` and Windows-1252 (gzipped too), where the header was taken for one " +
      'column',
    async () => {
      const dir = tempDir('collect-sample-');
      const bytes = Buffer.from('Nome;Endereço;Total\r\nJoão;Rua Augusta, 1500;259,90\r\n', 'latin1');
      writeFileSync(join(dir, 'pedidos.csv'), bytes);
      writeFileSync(join(dir, 'pedidos.csv.gz'), gzipSync(bytes));
      for (const name of ['pedidos.csv', 'pedidos.csv.gz'])
        expect(await readExportSample(join(dir, name))).toEqual({
          dialect: { delimiter: ';', encoding: 'windows-1252' },
          header: ['Nome', 'Endereço', 'Total'],
          rows: [['João', 'Rua Augusta, 1500', '259,90']],
        });
    },
  );
  it('reads only the first bytes of a large export', async () => {
    const dir = tempDir('collect-sample-');
    const rows = Array.from({ length: 50_000 }, (_, n) => `#${n},item ${n},10.00`).join('\n');
    writeFileSync(join(dir, 'big.csv'), `Name,Lineitem name,Lineitem price\n${rows}\n`);
    const sample = await readExportSample(join(dir, 'big.csv'));
    expect(sample.rows).toHaveLength(200);
    expect(sample.rows[199]).toEqual(['#199', 'item 199', '10.00']);
  });
});
