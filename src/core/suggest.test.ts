import { describe, expect, it } from 'vitest';
import { closest, shorten } from './suggest.js';

describe('closest', () => {
  it('finds case and spelling slips', () => {
    expect(closest('Approved', ['approved', 'declined'])).toBe('approved');
    expect(closest('manual analysis', ['manual_analysis', 'pending'])).toBe('manual_analysis');
    expect(closest('total_paid_valeu', ['total_paid_value', 'total_gross_value'])).toBe('total_paid_value');
  });
  it('suggests nothing for unrelated words', () => {
    expect(closest('banana', ['approved', 'declined'])).toBeUndefined();
  });
});

describe('shorten', () => {
  it('quotes and cuts long values', () => {
    expect(shorten('abc')).toBe('"abc"');
    expect(shorten('x'.repeat(100), 10)).toBe('"xxxxxxxx…');
    expect(shorten(12)).toBe('12');
  });
});
