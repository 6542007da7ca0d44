import { describe, expect, it } from 'vitest';
import { convertCell, NEEDS_FULL, quickCell } from './cells.js';

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
    expect(value('10,50', 'number')).toMatchObject({
      code: 'invalid-number',
      hint: expect.stringContaining('10.50'),
    });
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

describe('quickCell, the fast path of the compiled row builder', () => {
  it('converts plain numbers, true/false and A|B lists itself, to what convertCell gives', () => {
    const common: [string, Parameters<typeof convertCell>[1], unknown][] = [
      ['0', 'number', 0],
      ['10', 'number', 10],
      ['10.5', 'number', 10.5],
      ['-3', 'integer', -3],
      ['-0.25', 'number', -0.25],
      ['007', 'number', 7],
      ['true', 'boolean', true],
      ['false', 'boolean', false],
      ['A|B', 'string-array', ['A', 'B']],
      ['A', 'string-array', ['A']],
      ['0042', 'string', '0042'],
      ['[x', 'unknown', '[x'],
    ];
    for (const [text, kind, expected] of common) {
      expect(quickCell(text, kind), `${text} as ${kind}`).toEqual(expected);
      expect(convertCell(text, kind), `${text} as ${kind}`).toEqual({ ok: true, value: expected });
    }
  });
  it('leaves every other cell to convertCell', () => {
    const others: [string, Parameters<typeof convertCell>[1]][] = [
      ['1.', 'number'],
      ['.5', 'number'],
      ['+2', 'number'],
      ['1e3', 'number'],
      [' 12 ', 'number'],
      ['1.2.3', 'number'],
      ['-', 'number'],
      ['1-2', 'number'],
      ['10,50', 'number'],
      ['1,234.56', 'integer'],
      ['TRUE', 'boolean'],
      [' true', 'boolean'],
      ['yes', 'boolean'],
      ['["A|1","B"]', 'string-array'],
      [' ["A"]', 'string-array'],
      ['{"a":1}', 'json'],
      ['x', 'json'],
    ];
    for (const [text, kind] of others) expect(quickCell(text, kind), `${text} as ${kind}`).toBe(NEEDS_FULL);
  });
  it.each([
    ['1.', 1],
    ['.5', 0.5],
    ['+2', 2],
    ['1e3', 1000],
    [' 12 ', 12],
    ['1.2.3', null],
    ['-', null],
    ['1-2', null],
    ['10,50', null],
  ] as const)('convertCell reads %j as a number: %j', (text, expected) => {
    const result = convertCell(text, 'number');
    expect(result.ok ? result.value : null).toBe(expected);
  });
});
