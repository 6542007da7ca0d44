import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it, vi } from 'vitest';
import { orderResource } from '../resources/order/index.js';
import { inputSpec } from './openInput.js';
import { pieceWorkers } from './pieceParsers.js';
import { readRecords } from './readRecords.js';
import { tempDir } from '../../test/helpers/tempDir.js';

async function records(path: string) {
  const read = [];
  const options = { now: new Date('2024-06-01T00:00:00Z') };
  for await (const record of readRecords(inputSpec(path), orderResource, new PassThrough(), options)) {
    const { file: _file, checked, ...rest } = record;
    read.push({ ...rest, issues: checked.issues, orderId: checked.orderId });
  }
  return read;
}

describe('parquetFormat', () => {
  it('reads a file of many row groups on the workers as it reads it on this thread', async () => {
    const dir = tempDir('collect-parquet-groups-');
    const count = 500;
    const buffer = Buffer.from(
      parquetWriteBuffer({
        columnData: [
          { name: 'id', data: Array.from({ length: count }, (_, n) => `ORD-${n}`), type: 'STRING' },
          {
            name: 'creation_datetime',
            data: Array.from({ length: count }, (_, n) => new Date(Date.UTC(2024, 0, 1, 0, 0, n))),
            type: 'TIMESTAMP',
          },
          {
            name: 'total_paid_value',
            data: Array.from({ length: count }, (_, n) => (n % 7 === 0 ? null : n + 0.25)),
            type: 'DOUBLE',
          },
          { name: 'user.id', data: Array.from({ length: count }, (_, n) => `C-${n % 13}`), type: 'STRING' },
        ],
        rowGroupSize: 40,
      }),
    );
    writeFileSync(join(dir, 'orders.parquet'), buffer);
    // Gzipped, the file is held whole and read on this thread.
    writeFileSync(join(dir, 'orders.parquet.gz'), gzipSync(buffer));
    const take = vi.spyOn(pieceWorkers, 'take');
    const onWorkers = await records(join(dir, 'orders.parquet'));
    expect(take).toHaveBeenCalled();
    take.mockClear();
    const here = await records(join(dir, 'orders.parquet.gz'));
    expect(take).not.toHaveBeenCalled();
    take.mockRestore();
    expect(onWorkers).toHaveLength(count);
    expect(onWorkers).toEqual(here);
    expect(onWorkers[41]).toMatchObject({ index: 41, line: 42, orderId: 'ORD-41' });
    expect((onWorkers[41]!.value as { total_paid_value: number }).total_paid_value).toBe(41.25);
  });
});
