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
  it('keeps a flag per fingerprint, across growth', () => {
    const set = new FingerprintSet();
    set.add('A');
    set.flag('A');
    set.flag('never added');
    for (let i = 0; i < 100_000; i++) set.add(`ORD-${i}`);
    expect(set.flagged('A')).toBe(true);
    expect(set.add('A')).toBe(true);
    expect(set.flagged('ORD-5')).toBe(false);
    expect(set.flagged('never added')).toBe(false);
  });
});
