import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { ReportBuilder, reportExitCode } from './report.js';

const at = (index: number | null) => ({ file: 'o.csv', index, line: index === null ? 1 : index + 2 });

describe('ReportBuilder', () => {
  it('counts records, valid and invalid ones, errors and warnings', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('order', at(0), []);
    builder.add('order', at(1), [warning('unknown-field', 'x', 'x is unknown')]);
    builder.add('order', at(2), [
      error('required', 'id', 'id is required'),
      warning('unknown-field', 'y', 'y'),
    ]);
    const report = builder.build();
    expect(report.summary).toMatchObject({ records: 3, valid: 2, invalid: 1, errors: 1, warnings: 2 });
    expect(report.issues[1]).toEqual({
      severity: 'error',
      code: 'required',
      path: 'id',
      message: 'id is required',
      endpoint: 'order',
      file: 'o.csv',
      index: 2,
      line: 4,
    });
    expect(reportExitCode(report)).toBe(1);
  });
  it('exits 0 with warnings only, and 1 under --strict, where warnings become errors', () => {
    const lenient = new ReportBuilder({ strict: false });
    lenient.add('order', at(0), [warning('unknown-field', 'x', 'x')]);
    expect(reportExitCode(lenient.build())).toBe(0);
    const strict = new ReportBuilder({ strict: true });
    strict.add('order', at(0), [warning('unknown-field', 'x', 'x')]);
    const report = strict.build();
    expect(report.summary).toMatchObject({ invalid: 1, errors: 1, warnings: 0 });
    expect(report.issues[0]?.severity).toBe('error');
    expect(reportExitCode(report)).toBe(1);
  });
  it('does not count a file-level problem as a record, but fails the run on it', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('order', at(null), [error('duplicate-header', 'id', 'twice')]);
    const report = builder.build();
    expect(report.summary).toMatchObject({ records: 0, errors: 1 });
    expect(reportExitCode(report)).toBe(1);
  });
});

describe('ReportBuilder with keepBytes (a long sandbox session)', () => {
  it(
    'counts every record and finding, keeps them only until the budget is full, and says how many it ' +
      'did not keep',
    () => {
      const builder = new ReportBuilder({ strict: false, keepBytes: 5_000 });
      const issue = {
        severity: 'error' as const,
        code: 'unknown-order',
        path: 'id',
        message: 'order "X" was never created',
        hint: 'create it first',
      };
      for (let i = 1; i <= 100; i++)
        builder.add('status', { file: `request #${i} PUT /v2/order`, index: 0, line: i }, [issue]);
      const report = builder.build();
      expect(report.summary).toMatchObject({ records: 100, invalid: 100, errors: 100 });
      expect(report.issues.length).toBeGreaterThan(0);
      expect(report.issues.length).toBeLessThan(20);
      expect(report.notes).toEqual([
        { code: 'findings-not-kept', count: 100 - report.issues.length, message: expect.any(String) },
        { code: 'requests-not-listed', count: 100 - report.files.length, message: expect.any(String) },
      ]);
      for (const kept of report.issues)
        expect(report.files.some((file) => file.file === kept.file)).toBe(true);
    },
  );

  it('lists a later finding even after valid records filled their share', () => {
    const builder = new ReportBuilder({ strict: false, keepBytes: 40_000 });
    for (let i = 1; i <= 1000; i++)
      builder.add('status', { file: `request #${i} PUT /v2/order`, index: 0, line: i }, []);
    builder.add('status', { file: 'request #1001 PUT /v2/order', index: 0, line: 1001 }, [
      error('unknown-order', 'id', 'never created'),
    ]);
    const report = builder.build();
    expect(report.issues.map((issue) => issue.line)).toEqual([1001]);
    expect(report.files.map((file) => file.file)).toContain('request #1001 PUT /v2/order');
    expect(report.notes).toEqual([
      { code: 'requests-not-listed', count: 1001 - report.files.length, message: expect.any(String) },
    ]);
  });

  it("lists what was sent per endpoint in the service's order, whichever answered first", () => {
    const builder = new ReportBuilder({ strict: false });
    const at = { file: 'f', index: 0, line: 1 };
    for (const endpoint of ['delivery', 'payment', 'order', 'status'])
      builder.addSent(endpoint, at, { kind: 'accepted' } as never, true);
    expect(Object.keys(builder.build().delivery!.endpoints)).toEqual([
      'order',
      'status',
      'payment',
      'delivery',
    ]);
  });
});
