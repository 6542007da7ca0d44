import type { ResourceLimits } from 'node:worker_threads';
import { InputError } from '../core/errors.js';

/**
 * A piece worker's heap limits for records of at most `maxRecordSize` bytes (0: no limit, none).
 * Left to itself, V8 let each worker's old generation fill with garbage over a long run: capped,
 * a million-order dry run peaked at about 315 MiB instead of 345, in the same time (a cap of 40
 * MiB made it nearly twice as slow: the workers' live data is 20-30 MiB). The cap grows with the
 * largest record a piece may hold. The young generation is stated as V8's default (two 16 MiB
 * semi-spaces): the young-generation sizes tried below it made the runs slower.
 */
export function pieceWorkerLimits(maxRecordSize: number): ResourceLimits | undefined {
  if (maxRecordSize <= 0) return undefined;
  return {
    maxOldGenerationSizeMb: 64 + 16 * Math.ceil(maxRecordSize / (1024 * 1024)),
    maxYoungGenerationSizeMb: 48,
  };
}

/** A worker that ran out of its heap (pieceWorkerLimits): an input error that says which flag gives it more. */
export function outOfMemory(maxRecordSize: number): InputError {
  const limit = pieceWorkerLimits(maxRecordSize)?.maxOldGenerationSizeMb;
  return new InputError(
    `a reading thread ran out of memory (${limit} MiB) on a piece of the input: a record takes ` +
      `more memory than --max-record-bytes (${maxRecordSize} bytes) allows for`,
    'raise --max-record-bytes: the reading threads are given 16 MiB more for each MiB of it',
  );
}
