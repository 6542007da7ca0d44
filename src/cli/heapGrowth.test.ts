import { describe, expect, it } from 'vitest';
import { heapGrowthFlag } from './heapGrowth.js';

describe('heapGrowthFlag', () => {
  it('caps the heap growth when node was given no growth of its own', () => {
    expect(heapGrowthFlag([])).toBe('--heap-growing-percent=50');
    expect(heapGrowthFlag(['--enable-source-maps', '--max-old-space-size=4096'])).toBe(
      '--heap-growing-percent=50',
    );
  });

  it("leaves node's own --heap-growing-percent alone, in either spelling", () => {
    expect(heapGrowthFlag(['--heap-growing-percent=200'])).toBeUndefined();
    expect(heapGrowthFlag(['--heap_growing_percent=10'])).toBeUndefined();
  });
});
