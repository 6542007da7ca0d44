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
      error('invalid-enum', 'status', 'status must be one of: approved, declined', { value: 'Approved', hint: 'did you mean "approved"?' }),
      warning('unknown-field', 'total_paid_valeu', 'total_paid_valeu is not a field the service knows here', { hint: 'did you mean total_paid_value?' }),
    ]);
    expect(formatPretty(builder.build(), plain)).toBe([
      'o.csv:3  record 1 (order)',
      '  ✖ error   status  status must be one of: approved, declined (got "Approved")  [invalid-enum]',
      '              fix: did you mean "approved"?',
      '  ⚠ warning total_paid_valeu  total_paid_valeu is not a field the service knows here  [unknown-field]',
      '              fix: did you mean total_paid_value?',
      '',
      '✖ 2 records: 1 valid, 1 invalid · 1 error · 1 warning',
      '',
    ].join('\n'));
  });
  it('says so when everything is valid, and shortens long values', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('status', { file: 's.json', index: 0, line: 1 }, [warning('x', 'a', 'odd', { value: 'y'.repeat(200) })]);
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
});
