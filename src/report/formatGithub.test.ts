import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { formatGithub } from './formatGithub.js';
import { ReportBuilder } from './report.js';

const COMMAND = /^::(error|warning|notice) (file=[^,:]+(,line=\d+)?,)?title=[^,:]+::[^\r\n]*$/;

describe('formatGithub', () => {
  it('writes one workflow command per problem, with file, line and the rule as title, escaped', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('order', { file: 'data/orders, 2024.csv', index: 4, line: 6 }, [
      error('invalid-number', 'total_paid_value', '"10,50" is not a number\nsecond line 100%', {
        hint: 'use a dot: 10.50',
      }),
    ]);
    builder.add('order', { file: 'data/orders.csv', index: null, line: 1 }, [
      warning('unknown-field', 'x', 'column x: unknown'),
    ]);
    builder.note('unknown-order', 'skipped: nothing known');
    const lines = formatGithub(builder.build()).trimEnd().split('\n');
    expect(lines[0]).toBe(
      '::error file=data/orders%2C 2024.csv,line=6,title=invalid-number::total_paid_value: "10,50" is not a number%0Asecond line 100%25 (record 4, order). Fix: use a dot: 10.50',
    );
    expect(lines[1]).toBe('::warning file=data/orders.csv,line=1,title=unknown-field::x: column x: unknown.');
    expect(lines[2]).toBe('::notice title=unknown-order::skipped: nothing known');
    for (const line of lines.slice(0, 3)) expect(line).toMatch(COMMAND);
    expect(lines[3]).toMatch(/^collect: 1 record, /);
  });
});
