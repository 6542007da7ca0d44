import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { formatJunit } from './formatJunit.js';
import { ReportBuilder } from './report.js';

function sample() {
  const builder = new ReportBuilder({ strict: false });
  builder.add('order', { file: 'a&b <orders>.csv', index: 0, line: 2 }, []);
  builder.add('order', { file: 'a&b <orders>.csv', index: 1, line: 3 }, [
    error('invalid-enum', 'status', 'status must be "one" of: <a>, b & c', { hint: 'use "a"' }),
    warning('unknown-field', 'x\u0001y', 'control \u0001 character'),
  ]);
  builder.add('status', { file: 's.ndjson', index: 0, line: 1 }, [
    warning('status-unchanged', 'status', 'already approved'),
  ]);
  builder.note('unknown-order', 'skipped: no order creations');
  return builder.build();
}

describe('formatJunit', () => {
  it('is well-formed XML, with a testsuite per file, a testcase for the file and one per record with problems', () => {
    const xml = formatJunit(sample());
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = parsed.testsuites.testsuite;
    expect(suites.map((s: { name: string }) => s.name)).toEqual(['a&b <orders>.csv', 's.ndjson']);
    expect(suites[0]).toMatchObject({ tests: '2', failures: '1' });
    expect(suites[0].testcase[0]).toEqual({
      classname: 'order.a&b <orders>.csv',
      name: '2 records checked',
      file: 'a&b <orders>.csv',
    });
    expect(suites[0].testcase[1]).toMatchObject({
      name: 'record 1 (line 3)',
      line: '3',
      failure: { type: 'invalid-enum' },
    });
    expect(suites[1]).toMatchObject({ tests: '2', failures: '0' });
    expect(suites[1].testcase[1]['system-out']).toContain('status-unchanged');
    expect(parsed.testsuites).toMatchObject({ tests: '4', failures: '1' });
    expect(parsed.testsuites['system-out']).toContain('unknown-order');
  });

  it('shows a valid file as one passed test, and a problem with the file as its failure', () => {
    const builder = new ReportBuilder({ strict: false });
    for (let index = 0; index < 3; index++)
      builder.add('order', { file: 'valid.csv', index, line: index + 2 }, []);
    builder.add('status', { file: 'broken.csv', index: null, line: 4 }, [
      error('invalid-csv', '', 'a quoted cell is never closed'),
    ]);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      formatJunit(builder.build()),
    );
    const [valid, broken] = parsed.testsuites.testsuite;
    expect(valid).toMatchObject({
      name: 'valid.csv',
      tests: '1',
      failures: '0',
      testcase: { name: '3 records checked' },
    });
    expect(valid.testcase.failure).toBeUndefined();
    expect(broken).toMatchObject({
      tests: '1',
      failures: '1',
      testcase: { name: '0 records checked', line: '4', failure: { type: 'invalid-csv' } },
    });
    expect(parsed.testsuites).toMatchObject({ tests: '2', failures: '1' });
  });
});
