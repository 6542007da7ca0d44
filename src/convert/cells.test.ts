import { describe, expect, it } from 'vitest';
import { convertCell } from './cells.js';

const value = (text: string, kind: Parameters<typeof convertCell>[1]) => {
  const result = convertCell(text, kind);
  return result.ok ? result.value : result.issue;
};

describe('convertCell', () => {
  it('keeps strings as written, leading zeros included', () => {
    expect(value('0042', 'string')).toBe('0042');
    expect(value('0042', 'unknown')).toBe('0042');
  });
  it('reads numbers with a dot, and explains a decimal comma', () => {
    expect(value('10.50', 'number')).toBe(10.5);
    expect(value('-3', 'integer')).toBe(-3);
    expect(value('1e3', 'number')).toBe(1000);
    expect(value('10,50', 'number')).toMatchObject({ code: 'invalid-number', hint: expect.stringContaining('10.50') });
    expect(value('1.234,56', 'number')).toMatchObject({ hint: expect.stringContaining('1234.56') });
    expect(value('1,234.56', 'number')).toMatchObject({ hint: expect.stringContaining('1234.56') });
    expect(value('R$ 10.50', 'number')).toMatchObject({ hint: expect.stringContaining('10.50') });
    expect(value('ten', 'number')).toMatchObject({ code: 'invalid-number' });
  });
  it('reads booleans in any case', () => {
    expect(value('TRUE', 'boolean')).toBe(true);
    expect(value('False', 'boolean')).toBe(false);
    expect(value('yes', 'boolean')).toMatchObject({ code: 'invalid-boolean' });
  });
  it('reads string lists split on | or as a JSON array', () => {
    expect(value('A|B', 'string-array')).toEqual(['A', 'B']);
    expect(value('["A|1","B"]', 'string-array')).toEqual(['A|1', 'B']);
    expect(value('[broken', 'string-array')).toMatchObject({ code: 'invalid-json' });
  });
  it('reads custom_data as a JSON cell', () => {
    expect(value('{"channel":"app"}', 'json')).toEqual({ channel: 'app' });
    expect(value('{channel', 'json')).toMatchObject({ code: 'invalid-json' });
  });
});

describe('number cells, fast path and regular path agree', () => {
  it.each(['0', '10', '10.5', '-3', '-0.25', '007', '1.', '.5', '+2', '1e3', ' 12 ', '1.2.3', '-', '', '1-2'])('%j', (text) => {
    const pattern = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
    const result = convertCell(text, 'number');
    if (pattern.test(text.trim())) expect(result).toEqual({ ok: true, value: Number(text.trim()) });
    else expect(result.ok).toBe(false);
  });
});
