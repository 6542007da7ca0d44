import { describe, expect, it } from 'vitest';
import { planBuckets, shareOf } from './bucketShare.js';

describe('planBuckets', () => {
  it('gives each of n replicas an even share, rounded up, so every bucket has a holder', () => {
    expect(shareOf(1, 32)).toBe(32);
    expect(shareOf(3, 32)).toBe(11);
    expect(3 * shareOf(3, 32)).toBeGreaterThanOrEqual(32);
    expect(shareOf(0, 32)).toBe(32);
  });

  it('a lone replica tries every bucket; one of two releases its highest half', () => {
    expect(planBuckets(new Set(), 1, 4)).toEqual({ release: [], tryTake: [0, 1, 2, 3] });
    expect(planBuckets(new Set([0, 1, 2, 3]), 2, 4)).toEqual({ release: [2, 3], tryTake: [] });
  });

  it('below its share a replica tries the buckets it lacks; at its share it does nothing', () => {
    expect(planBuckets(new Set([0]), 2, 4)).toEqual({ release: [], tryTake: [1, 2, 3] });
    expect(planBuckets(new Set([0, 3]), 2, 4)).toEqual({ release: [], tryTake: [] });
  });
});
