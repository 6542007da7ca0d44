import { describe, expect, it } from 'vitest';
import { cellMatcher, linearPattern, MATCH_CELL_LIMIT } from './matchPattern.js';

const street = '^(?<name>.+?),?\\s+(?<number>\\d+[A-Za-z]?)\\s*$';

describe('cellMatcher', () => {
  it('takes the named group of the first match', () => {
    const take = cellMatcher(street, 'number') as (text: string) => unknown;
    expect(take('Rua Augusta, 1500')).toBe('1500');
  });

  // Backtracking took over 60 s on the nested pattern, and 74 s on the street pattern over a 160 KB cell.
  it('runs a nested pattern on a cell that does not match in linear time', () => {
    const take = cellMatcher('^(\\w+\\s?)*$', undefined) as (text: string) => unknown;
    expect(take(`${'a'.repeat(40)}!`)).toMatchObject({ absent: true, issue: { code: 'no-match' } });
    expect(take('ab cd ef')).toBe('ef');
  });

  it('runs the street pattern on a long cell that does not match in linear time', () => {
    const take = cellMatcher(street, 'name') as (text: string) => unknown;
    expect(take(`${'a '.repeat(MATCH_CELL_LIMIT / 2 - 1)}x`)).toMatchObject({ issue: { code: 'no-match' } });
  });

  it('leaves an over-long cell out with a no-match warning that says so', () => {
    const take = cellMatcher(street, 'name') as (text: string) => unknown;
    const outcome = take(`Rua ${'a'.repeat(MATCH_CELL_LIMIT)}, 12`) as {
      issue: { message: string; value: string };
    };
    expect(outcome).toMatchObject({
      ok: true,
      absent: true,
      issue: { severity: 'warning', code: 'no-match' },
    });
    expect(outcome.issue.message).toContain(`longer than the ${MATCH_CELL_LIMIT}`);
    expect(outcome.issue.value.length).toBeLessThan(300);
  });
});

describe('linearPattern', () => {
  it('names what RE2 cannot run: lookaround and backreferences', () => {
    expect(linearPattern('a(?=b)')).toMatch(/Perl syntax/);
    expect(linearPattern('(a)\\1')).toMatch(/invalid escape/);
  });
});
