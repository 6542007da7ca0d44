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
      '::error file=data/orders%2C 2024.csv,line=6,title=invalid-number::total_paid_value: "10,50" ' +
        'is not a number%0Asecond line 100%25 (record 4, order). Fix: use a dot: 10.50',
    );
    expect(lines[1]).toBe('::warning file=data/orders.csv,line=1,title=unknown-field::x: column x: unknown.');
    expect(lines[2]).toBe('::notice title=unknown-order::skipped: nothing known');
    for (const line of lines.slice(0, 3)) expect(line).toMatch(COMMAND);
    expect(lines[3]).toMatch(/^collect: 1 record, /);
  });

  it('annotates at most 10 errors and 10 warnings: one per issue group, with its count and first place', () => {
    const builder = new ReportBuilder({ strict: false });
    for (let row = 0; row < 3000; row++)
      builder.add('order', { file: 'orders.csv', index: row, line: row + 2 }, [
        error('invalid-number', `field_${row % 12}`, `"x${row}" is not a number`),
        warning('unknown-field', `extra_${row % 15}`, 'not a field'),
      ]);
    const lines = formatGithub(builder.build()).trimEnd().split('\n');
    const errors = lines.filter((line) => line.startsWith('::error '));
    const warnings = lines.filter((line) => line.startsWith('::warning '));
    expect(errors).toHaveLength(10);
    expect(warnings).toHaveLength(10);
    for (const line of [...errors, ...warnings]) expect(line).toMatch(COMMAND);
    expect(errors[0]).toBe(
      '::error file=orders.csv,line=2,title=invalid-number (250 issues)::field_0: "x0" is not a ' +
        'number (record 0, order); 249 more issues like it in order records.',
    );
    expect(lines).toContain(
      'collect: 7 more issue groups not annotated (GitHub shows 10 of each kind per step): --format json lists them',
    );
    expect(lines.at(-1)).toBe('collect: 3,000 records, 0 valid, 3000 invalid, 3,000 errors, 3,000 warnings');
  });

  it('hands a Markdown job summary to stepSummary: verdict, counts, the groups, per file, input escaped', () => {
    const builder = new ReportBuilder({ strict: false });
    const file = 'in/<img src=x onerror=alert(1)>|x.csv';
    for (let row = 0; row < 3; row++)
      builder.add('order', { file, index: row, line: row + 2 }, [
        error('invalid-number', 'total_paid_value', `"a|b" is not a number`, { hint: 'use digits' }),
      ]);
    builder.add('status', { file: 'status.csv', index: 0, line: 2 }, []);
    let markdown = '';
    formatGithub(builder.build(), { stepSummary: (text) => (markdown += text) });
    expect(markdown).toContain('### collect: ❌ 4 records: 3 invalid');
    expect(markdown).toContain('| records | valid | invalid | errors | warnings |');
    expect(markdown).toContain('| 4 | 1 | 3 | 3 | 0 |');
    expect(markdown).toMatch(
      /\| ❌ error \| invalid\\-number \| order \| total\\_paid\\_value \| 3 \| in\/&lt;img .*:2 \(record 0\) \|/,
    );
    expect(markdown).toContain('| status\\.csv | status | 1 | 0 |');
    expect(markdown).not.toContain('<img');
    expect(markdown).not.toMatch(/[^\\]\|x\\\.csv/);
  });
});
