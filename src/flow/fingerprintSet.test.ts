import { describe, expect, it } from 'vitest';
import { FingerprintSet } from './fingerprintSet.js';

describe('FingerprintSet', () => {
  it('says when a text comes again, across growth, and not otherwise', () => {
    const set = new FingerprintSet();
    const repeats: string[] = [];
    for (let i = 0; i < 300_000; i++) if (set.add(`ORD-${i}`)) repeats.push(`ORD-${i}`);
    expect(repeats).toEqual([]);
    expect(set.add('ORD-17')).toBe(true);
    expect(set.add('ORD-299999')).toBe(true);
    expect(set.add('ORD-300000')).toBe(false);
  });
});
