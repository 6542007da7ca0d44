import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { formatGithub } from './formatGithub.js';
import { formatPretty } from './formatPretty.js';
import { ReportBuilder } from './report.js';

const plain = new Chalk({ level: 0 });
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('the verdict and counts of a report', () => {
  it('under --strict, a header warning faults every record of its file, so the counts agree with the error', () => {
    const builder = new ReportBuilder({ strict: true });
    builder.add('status', { file: 's.csv', index: null, line: 1 }, [
      warning('unknown-field', 'colour', 'the column colour is not a field the service knows'),
    ]);
    for (let index = 0; index < 3; index++)
      expect(builder.add('status', { file: 's.csv', index, line: index + 2 }, [])).toBe(true);
    builder.add('status', { file: 'other.csv', index: 0, line: 2 }, []);
    const report = builder.build();
    expect(report.summary).toMatchObject({ records: 4, valid: 1, invalid: 3, errors: 1, warnings: 0 });
    expect(lastLine(formatPretty(report, plain))).toBe(
      '✖ 4 records: 1 valid, 3 invalid · 1 error · 0 warnings',
    );
    expect(lastLine(formatGithub(report))).toBe(
      'collect: 4 records, 1 valid, 3 invalid, 1 error, 0 warnings',
    );
  });

  it('without --strict the same header warning leaves the records valid', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('status', { file: 's.csv', index: null, line: 1 }, [
      warning('unknown-field', 'colour', 'unknown'),
    ]);
    expect(builder.add('status', { file: 's.csv', index: 0, line: 2 }, [])).toBe(false);
    expect(lastLine(formatGithub(builder.build()))).toBe(
      'collect: 1 record, 1 valid, 0 invalid, 0 errors, 1 warning',
    );
  });

  it('an interrupted run ends without a green check', () => {
    const builder = new ReportBuilder({ strict: false });
    builder.add('status', { file: 's.csv', index: 0, line: 2 }, []);
    builder.note(
      'interrupted',
      'interrupted (Ctrl-C): what was done is saved; run the same command again to go on',
    );
    const out = formatPretty(builder.build(), plain);
    expect(out).not.toContain('✔');
    expect(lastLine(out)).toBe('⚠ interrupted: 1 record: 1 valid, 0 invalid · 0 errors · 0 warnings');
  });

  it('after the key is refused, counts what was sent and what was not, apart', () => {
    const builder = new ReportBuilder({ strict: false });
    for (let index = 0; index < 5; index++)
      builder.add('status', { file: 's.ndjson', index, line: index + 1 }, []);
    const refused = error('key-refused', '', 'the service refused the API key (HTTP 401)');
    builder.addSent(
      'status',
      { file: 's.ndjson', index: 0, line: 1 },
      { kind: 'failed', issue: refused },
      true,
    );
    builder.addSent(
      'status',
      { file: 's.ndjson', index: 1, line: 2 },
      { kind: 'failed', issue: refused },
      true,
    );
    builder.addSent(
      'status',
      { file: 's.ndjson', index: 2, line: 3 },
      { kind: 'failed', issue: error('not-sent', '', 'not sent: the service refused the API key') },
      false,
    );
    const report = builder.build();
    expect(report.summary).toMatchObject({ sent: 2, failed: 2, unsent: 3 });
    expect(formatPretty(report, plain)).toContain(
      '  sent 2 · accepted 0 · rejected 0 · failed 2 · retried 0 · skipped 0 · not sent 3\n',
    );
  });
});
