import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputSpec } from './openInput.js';
import { RelatedRowIndex } from './relatedRowIndex.js';
import { tempDir } from '../../test/helpers/tempDir.js';

describe('RelatedRowIndex', () => {
  it(
    "indexes a glob's files as one: rows in file order, each in the first file's column order and " +
      'named by its file',
    async () => {
      const dir = tempDir('collect-related-');
      writeFileSync(join(dir, 'pay_1.csv'), 'order,ref\nA,p1\nB,p2\n');
      writeFileSync(join(dir, 'pay_2.csv'), Buffer.from('ref;order\r\np3;A\r\n', 'latin1'));
      const headers: Record<string, string[]> = {
        'pay_1.csv': ['order', 'ref'],
        'pay_2.csv': ['ref', 'order'],
      };
      const index = await RelatedRowIndex.build(
        { dir: () => dir, close: () => rmSync(dir, { recursive: true, force: true }) },
        (file) => ({
          ...inputSpec(join(dir, file), 'csv'),
          ...(file === 'pay_2.csv' ? { csv: { delimiter: ';', encoding: 'latin1' as const } } : {}),
        }),
        [{ file: 'pay_*.csv', keyColumn: 'order', files: ['pay_1.csv', 'pay_2.csv'] }],
        (file) => headers[file],
      );
      try {
        expect([...index.list('pay_*.csv', 'order', 'A')]).toEqual([
          { file: 'pay_1.csv', line: 2, cells: ['A', 'p1'] },
          { file: 'pay_2.csv', line: 2, cells: ['A', 'p3'] },
        ]);
        index.prefetch('pay_*.csv', 'order', ['B']);
        expect([...index.list('pay_*.csv', 'order', 'B')]).toEqual([
          { file: 'pay_1.csv', line: 3, cells: ['B', 'p2'] },
        ]);
      } finally {
        index.close();
      }
    },
  );
});
