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
  builder.add('status', { file: 's.ndjson', index: 0, line: 1 }, [warning('status-unchanged', 'status', 'already approved')]);
  builder.note('unknown-order', 'skipped: no order creations');
  return builder.build();
}

describe('formatJunit', () => {
  it('is well-formed XML, with a testsuite per file and a testcase per record with problems', () => {
    const xml = formatJunit(sample());
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = parsed.testsuites.testsuite;
    expect(suites.map((s: { name: string }) => s.name)).toEqual(['a&b <orders>.csv', 's.ndjson']);
    expect(suites[0]).toMatchObject({ tests: '1', failures: '1' });
    expect(suites[0].testcase).toMatchObject({ name: 'record 1 (line 3)', line: '3', failure: { type: 'invalid-enum' } });
    expect(suites[1]).toMatchObject({ tests: '1', failures: '0' });
    expect(suites[1].testcase['system-out']).toContain('status-unchanged');
    expect(parsed.testsuites).toMatchObject({ tests: '2', failures: '1' });
    expect(parsed.testsuites['system-out']).toContain('unknown-order');
  });
});
