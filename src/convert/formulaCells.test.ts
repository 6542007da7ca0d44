import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseFormula, restoreFormula } from './formulaCells.js';

describe('formula cells', () => {
  it.each([
    ['=HYPERLINK("http://evil","x")', `'=HYPERLINK("http://evil","x")`],
    [`=cmd|' /C calc'!A0`, `'=cmd|' /C calc'!A0`],
    ['+1+1', `'+1+1`],
    ['-1+1', `'-1+1`],
    ['@SUM(A1:A2)', `'@SUM(A1:A2)`],
    ['\t=1', `'\t=1`],
    ['\r=1', `'\r=1`],
    [`'quoted`, `''quoted`],
  ])('prefixes %j so a spreadsheet shows it as text', (cell, written) => {
    expect(neutraliseFormula(cell)).toBe(written);
  });

  it.each(['-12.50', '+3', '1e5', 'ORD-1', 'a=b', ''])('leaves %j alone', (cell) => {
    expect(neutraliseFormula(cell)).toBe(cell);
  });

  it('restores every cell exactly', () => {
    fc.assert(fc.property(fc.string(), (cell) => restoreFormula(neutraliseFormula(cell)) === cell));
  });

  it('never writes a cell a spreadsheet would run', () => {
    fc.assert(
      fc.property(fc.string(), (cell) => {
        const written = neutraliseFormula(cell);
        return !/^[=+\-@\t\r]/.test(written) || /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(written);
      }),
    );
  });
});
