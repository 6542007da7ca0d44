import { describe, expect, it } from 'vitest';
import type { IssueGroup } from './groupIssues.js';
import { gzipBudget, shareAmongGroups } from './ciLimits.js';

const group = (severity: IssueGroup['severity'], field: string, count: number): IssueGroup => ({
  severity,
  code: 'c',
  endpoint: 'order',
  field,
  count,
  message: 'm',
  sameMessage: true,
  sameHint: true,
  examples: [],
});

describe('shareAmongGroups', () => {
  it('gives every group its examples first, then the rest evenly, errors before warnings', () => {
    const groups = [group('error', 'a', 1000), group('error', 'b', 30), group('warning', 'w', 500)];
    expect([...shareAmongGroups(groups, 100, 10).values()]).toEqual([60, 30, 10]);
  });

  it('never gives more than a group holds nor more than the limit in all', () => {
    const groups = [group('error', 'a', 3), group('warning', 'w', 2)];
    expect([...shareAmongGroups(groups, 100, 10).values()]).toEqual([3, 2]);
    expect([...shareAmongGroups(groups, 4, 10).values()]).toEqual([3, 1]);
  });
});

describe('gzipBudget', () => {
  it('takes texts until their measure passes the budget, never below their gzipped size', () => {
    const fits = gzipBudget(4096);
    let taken = 0;
    while (fits('incompressible? no: the same words again and again ')) taken++;
    // Repeated words compress well: far more than 4 KiB of them fit.
    expect(taken * 52).toBeGreaterThan(8192);
  });
});
