import { describe, expect, it } from 'vitest';
import { hashBlob, hashText, outcomeCode, outcomeOf, unixSeconds } from './compactRows.js';

describe('compact rows', () => {
  it('stores a lowercase hex hash as its bytes and reads the same text back; other text stays text', () => {
    const hash = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
    expect(hashBlob(hash)).toEqual(Buffer.from(hash, 'hex'));
    expect(hashText(hashBlob(hash))).toBe(hash);
    // node:sqlite reads a BLOB back as a plain Uint8Array, whose toString is not hex.
    expect(hashText(new Uint8Array(Buffer.from(hash, 'hex')))).toBe(hash);
    for (const text of ['h', 'A94A', 'abc', '']) expect(hashBlob(text)).toBe(text);
  });
  it('stores outcomes as their codes and reads them back', () => {
    for (const outcome of ['validated', 'accepted', 'rejected', 'failed'] as const)
      expect(outcomeOf(outcomeCode(outcome))).toBe(outcome);
    expect(outcomeOf(9)).toBe('failed');
  });
  it('stores times as whole Unix seconds', () => {
    expect(unixSeconds(new Date('2024-03-01T10:00:00.999Z'))).toBe(1709287200);
  });
});
