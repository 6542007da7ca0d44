import { describe, expect, it } from 'vitest';
import { compiledFrom } from './compiledFrom.js';

describe('compiledFrom', () => {
  it('answers plainly before the n-th call, compiles once at it, and answers compiled from then on', () => {
    let compiles = 0;
    const f = compiledFrom(
      3,
      (x: number) => `plain ${x}`,
      () => (compiles++, (x: number) => `compiled ${x}`),
    );
    expect([1, 2, 3, 4, 5].map(f)).toEqual(['plain 1', 'plain 2', 'compiled 3', 'compiled 4', 'compiled 5']);
    expect(compiles).toBe(1);
  });

  it('stays plain when nothing could be compiled', () => {
    const f = compiledFrom(
      1,
      (x: number) => x + 1,
      () => undefined,
    );
    expect([1, 2, 3].map(f)).toEqual([2, 3, 4]);
  });
});
