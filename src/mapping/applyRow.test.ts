import { describe, expect, it } from 'vitest';
import { error } from '../core/issue.js';
import { locateInChildren } from './applyRow.js';

describe('locateInChildren', () => {
  it('gives an issue inside a list element the child row it came from', () => {
    const children = new Map([
      ['payments.0', { file: 'p.csv', line: 2 }],
      ['payments.1', { file: 'p.csv', line: 7 }],
    ]);
    const issues = [
      error('required', 'payments.1.id', 'id is required'),
      error('required', 'id', 'id is required'),
    ];
    expect(locateInChildren(issues, children).map((issue) => issue.child)).toEqual([
      { file: 'p.csv', line: 7 },
      undefined,
    ]);
  });
});
