import { describe, expect, it } from 'vitest';
import { createCsvTask } from '../decode/csvPieceTask.js';
import { createNdjsonTask } from '../decode/ndjsonPieceTask.js';
import { PieceParsers, pieceWorkers } from '../decode/pieceParsers.js';
import { pieceWorkerLimits } from './pieceWorkerHeap.js';

const csv = { maxRecordSize: 0, delimiter: '\n' as const };
const ndjson = {
  format: 'ndjson' as const,
  maxRecordSize: 0,
  endpoint: 'status',
  now: Date.parse('2024-06-01T00:00:00Z'),
  values: true,
  digest: true,
};

describe('the piece workers of a run', () => {
  it("serve file after file: the next file's pieces go to the workers of the last, with its own task", async () => {
    const csvPiece = Buffer.from('A,1\nB,"2\n3"\n');
    const first = new PieceParsers(2, csv);
    first.add(Buffer.from(csvPiece));
    first.add(Buffer.from(csvPiece));
    expect(await first.next()).toEqual((await createCsvTask(csv))(csvPiece));
    await first.next();
    const idleBefore = pieceWorkers.idleCount;
    await first.close();
    expect(pieceWorkers.idleCount).toBe(idleBefore + 2);

    const ndjsonPiece = Buffer.from('{"order_id":"A","status":"approved"}\n\n{"order_id":"B"}\n');
    const second = new PieceParsers(2, ndjson);
    second.add(Buffer.from(ndjsonPiece));
    second.add(Buffer.from(ndjsonPiece));
    expect(pieceWorkers.idleCount).toBe(idleBefore);
    expect(await second.next()).toEqual(createNdjsonTask(ndjson)(ndjsonPiece));
    expect(await second.next()).toEqual(createNdjsonTask(ndjson)(ndjsonPiece));
    await second.close();
  });

  it(
    'starts a worker with the heap limits of its records, and hands an idle one out only for the ' +
      'same limits',
    async () => {
      const small = pieceWorkerLimits(1024 * 1024)!;
      const large = pieceWorkerLimits(8 * 1024 * 1024)!;
      const worker = pieceWorkers.take(small);
      expect(worker.resourceLimits?.maxOldGenerationSizeMb).toBe(small.maxOldGenerationSizeMb);
      pieceWorkers.giveBack(worker);
      const other = pieceWorkers.take(large);
      expect(other).not.toBe(worker);
      expect(other.resourceLimits?.maxOldGenerationSizeMb).toBe(large.maxOldGenerationSizeMb);
      expect(pieceWorkers.take(small)).toBe(worker);
      await Promise.all([worker.terminate(), other.terminate()]);
    },
  );

  it('stops, and does not keep, a worker still parsing when its file is closed early', async () => {
    const parsers = new PieceParsers(1, csv);
    const idleBefore = pieceWorkers.idleCount;
    parsers.add(Buffer.from('A,1\n'.repeat(200_000)));
    await parsers.close();
    expect(pieceWorkers.idleCount).toBe(Math.max(0, idleBefore - 1));
  });
});
