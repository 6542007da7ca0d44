import { describe, expect, it } from 'vitest';
import { error, warning, type LocatedIssue } from '../core/issue.js';
import { fieldOf, groupIssues } from './groupIssues.js';

const at = (line: number, issue: ReturnType<typeof error>): LocatedIssue => ({
  ...issue,
  endpoint: 'order',
  file: 'o.csv',
  index: line - 2,
  line,
});

describe('groupIssues', () => {
  it('folds list positions into the field', () => {
    expect(fieldOf('payments.12.card.first_six_digits')).toBe('payments[].card.first_six_digits');
    expect(fieldOf('')).toBe('');
  });
  it('counts issues by severity, code and field, errors first, keeping the first examples', () => {
    const issues = [
      ...Array.from({ length: 5 }, (_, n) =>
        at(n + 2, warning('missing-recommended', 'total_paid_value', 'total_paid_value is missing')),
      ),
      at(
        9,
        error('invalid-number', 'payments.0.value', '"x" is not a number', { hint: 'give a plain number' }),
      ),
      {
        ...at(10, error('invalid-number', 'payments.3.value', '"y" is not a number')),
        child: { file: 'p.csv', line: 40 },
      },
    ];
    expect(groupIssues(issues, 2)).toEqual([
      {
        severity: 'error',
        code: 'invalid-number',
        endpoint: 'order',
        field: 'payments[].value',
        count: 2,
        message: '"x" is not a number',
        hint: 'give a plain number',
        sameMessage: false,
        sameHint: false,
        examples: [
          { file: 'o.csv', line: 9, index: 7, message: '"x" is not a number', hint: 'give a plain number' },
          {
            file: 'o.csv',
            line: 10,
            index: 8,
            child: { file: 'p.csv', line: 40 },
            message: '"y" is not a number',
          },
        ],
      },
      {
        severity: 'warning',
        code: 'missing-recommended',
        endpoint: 'order',
        field: 'total_paid_value',
        count: 5,
        message: 'total_paid_value is missing',
        sameMessage: true,
        sameHint: true,
        examples: [
          { file: 'o.csv', line: 2, index: 0, message: 'total_paid_value is missing' },
          { file: 'o.csv', line: 3, index: 1, message: 'total_paid_value is missing' },
        ],
      },
    ]);
  });
});
