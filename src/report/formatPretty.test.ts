import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { formatPretty } from './formatPretty.js';
import { ReportBuilder } from './report.js';

const plain = new Chalk({ level: 0 });

describe('formatPretty', () => {
  it('groups problems by record with field, rule, value and fix, then sums up', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('order', { file: 'o.csv', index: 0, line: 2 }, []);
    builder.add('order', { file: 'o.csv', index: 1, line: 3 }, [
      error('invalid-enum', 'status', 'status must be one of: approved, declined', {
        value: 'Approved',
        hint: 'did you mean "approved"?',
      }),
      warning('unknown-field', 'total_paid_valeu', 'total_paid_valeu is not a field the service knows here', {
        hint: 'did you mean total_paid_value?',
      }),
    ]);
    expect(formatPretty(builder.build(), plain)).toBe(
      [
        'o.csv:3  record 1 (order)',
        '  ✖ error   status  status must be one of: approved, declined (got "Approved")  [invalid-enum]',
        '              fix: did you mean "approved"?',
        '  ⚠ warning total_paid_valeu  total_paid_valeu is not a field the service knows here  [unknown-field]',
        '              fix: did you mean total_paid_value?',
        '',
        '✖ 2 records: 1 valid, 1 invalid · 1 error · 1 warning',
        '',
      ].join('\n'),
    );
  });
  it('says so when everything is valid, and shortens long values', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('status', { file: 's.json', index: 0, line: 1 }, [
      warning('x', 'a', 'odd', { value: 'y'.repeat(200) }),
    ]);
    const text = formatPretty(builder.build(), plain);
    expect(text).toContain('✔ 1 record: 1 valid, 0 invalid · 0 errors · 1 warning');
    expect(text).not.toContain('y'.repeat(60));
  });
  it('uses colour only when given a colouring chalk', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('status', { file: 's.json', index: 0, line: 1 }, [error('required', 'id', 'id is required')]);
    expect(formatPretty(builder.build(), plain)).not.toContain('\u001b[');
    expect(formatPretty(builder.build(), new Chalk({ level: 1 }))).toContain('\u001b[31m');
  });
  it('counts issues by code and field past the detail limit, and stays short at 100,000 identical warnings', () => {
    const builder = new ReportBuilder({ strict: false });
    for (let n = 0; n < 100_000; n++) {
      builder.add('order', { file: 'orders.csv', index: n, line: n + 2 }, [
        warning('missing-recommended', 'user', 'user is missing', { hint: 'add the customer' }),
      ]);
    }
    builder.add('order', { file: 'orders.csv', index: 100_000, line: 100_002 }, [
      {
        ...error('invalid-number', 'payments.0.value', '"x" is not a number'),
        child: { file: 'payments.csv', line: 7 },
      },
    ]);
    const text = formatPretty(builder.build(), plain);
    const lines = text.split('\n');
    expect(lines.length).toBeLessThan(120);
    expect(text).toContain('... 99,981 more issues not shown one by one: --all-issues shows every one');
    expect(text).toContain('  ⚠ missing-recommended ×100,000  order user: user is missing');
    expect(text).toContain('      e.g. orders.csv:2, orders.csv:3, orders.csv:4, ...');
    expect(text).toContain('  ✖ invalid-number ×1  order payments[].value: "x" is not a number');
    expect(text).toContain('      e.g. orders.csv:100002 (payments.csv:7)');
    expect(lines.at(-2)).toBe('✖ 100001 records: 100000 valid, 1 invalid · 1 error · 100000 warnings');
    expect(formatPretty(builder.build(), plain, { allIssues: true }).split('\n').length).toBeGreaterThan(
      200_000,
    );
  });
});
