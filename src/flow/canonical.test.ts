import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, isCanonical } from './canonical.js';

describe('canonicalJson and contentHash', () => {
  it('ignore key order at every depth, but not array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(contentHash('order', { id: 'A', x: { p: 1, q: 2 } })).toBe(
      contentHash('order', { x: { q: 2, p: 1 }, id: 'A' }),
    );
    expect(contentHash('order', { l: [1, 2] })).not.toBe(contentHash('order', { l: [2, 1] }));
  });
  it('tell endpoints apart', () => {
    expect(contentHash('status', { id: 'A' })).not.toBe(contentHash('delivery', { id: 'A' }));
  });
});

describe('canonicalJson of awkward keys and values', () => {
  it('is valid JSON equal to the input, for keys that need escaping too', () => {
    const value = { 'b "q"': [1, 'x', { z: null, 'a\nb': true }], a: 'é\u2028', 'c.d': -0.5, e: undefined };
    const text = canonicalJson(value);
    expect(JSON.parse(text)).toEqual({
      a: 'é\u2028',
      'b "q"': [1, 'x', { 'a\nb': true, z: null }],
      'c.d': -0.5,
    });
    expect(Object.keys(JSON.parse(text))).toEqual(['a', 'b "q"', 'c.d']);
  });
});

describe('the sorted fast path', () => {
  it('writes exactly what canonicalJson writes whenever a record is already sorted', () => {
    const sorted = { a: 1, b: [{ c: 'x', d: null }, 2], e: { f: 'é"\n', g: undefined, h: true } };
    expect(isCanonical(sorted)).toBe(true);
    expect(JSON.stringify(sorted)).toBe(canonicalJson(sorted));
    expect(isCanonical({ b: 1, a: 2 })).toBe(false);
    expect(isCanonical({ a: [{ d: 1, c: 2 }] })).toBe(false);
    expect(contentHash('order', { b: 1, a: 2 })).toBe(contentHash('order', { a: 2, b: 1 }));
  });
});
