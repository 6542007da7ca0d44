import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RejectsWriter } from './outputFiles.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const keep = (text: string) => text;
const excel = { delimiter: ';', encoding: 'windows-1252' } as const;

describe("RejectsWriter in a source file's dialect", () => {
  it('writes a ";"-separated Windows-1252 row, quoting the cell that holds ";"', async () => {
    const dir = tempDir('collect-rejects-writer-');
    const writer = new RejectsWriter(
      join(dir, 'out.csv'),
      [{ name: 'in.csv', format: 'csv', gzip: false, csv: excel }],
      keep,
    );
    writer.write(
      'in.csv',
      { kind: 'csv', header: ['Name', 'City'], cells: ['a; b', 'São'], line: 2 },
      'bad × 東',
    );
    await writer.close();
    expect(readFileSync(join(dir, 'out.csv'))).toEqual(
      Buffer.from('Name;City;collect_reason\n"a; b";São;bad × ?\n', 'latin1'),
    );
  });

  it(
    'refuses, naming file and line, a source cell its encoding cannot hold rather than write it in ' +
      'another',
    async () => {
      const dir = tempDir('collect-rejects-writer-');
      const writer = new RejectsWriter(
        join(dir, 'out.csv'),
        [{ name: 'in.csv', format: 'csv', gzip: false, csv: excel }],
        keep,
      );
      writer.write('in.csv', { kind: 'csv', header: ['City'], cells: ['東京'], line: 7 }, 'bad');
      await expect(writer.close()).rejects.toThrow(
        /in\.csv line 7: a cell holds "東" \(U\+6771\), which windows-1252 cannot hold/,
      );
    },
  );

  it('writes each of three identical rows without a line: three records, three rows', async () => {
    const dir = tempDir('collect-rejects-writer-');
    const writer = new RejectsWriter(
      join(dir, 'out.csv'),
      [{ name: 'in.csv', format: 'csv', gzip: false }],
      keep,
    );
    for (let n = 0; n < 3; n++) writer.write('in.csv', { kind: 'csv', header: ['id'], cells: ['A'] }, 'bad');
    await writer.close();
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe('id,collect_reason\nA,bad\nA,bad\nA,bad\n');
  });
});
