import { describe, expect, it } from 'vitest';
import { outOfMemory, pieceWorkerLimits } from './pieceWorkerHeap.js';

describe('the heap of a piece worker', () => {
  it('grows with the largest record allowed, and is left to V8 when records have no limit', () => {
    expect(pieceWorkerLimits(1024 * 1024)).toEqual({
      maxOldGenerationSizeMb: 80,
      maxYoungGenerationSizeMb: 48,
    });
    expect(pieceWorkerLimits(10 * 1024 * 1024 + 1)!.maxOldGenerationSizeMb).toBe(64 + 16 * 11);
    expect(pieceWorkerLimits(0)).toBeUndefined();
  });

  it('running out of it is an input error that names the limit and the flag that raises it', () => {
    const error = outOfMemory(2 * 1024 * 1024);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('96 MiB');
    expect(error.hint).toContain('--max-record-bytes');
  });
});
