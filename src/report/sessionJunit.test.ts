import { Chalk } from 'chalk';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { requestFile } from './requestName.js';
import { formatReport } from './formatReport.js';
import { ReportBuilder } from './report.js';

/** The same three requests of an application's tests, as a session started at `start` judges them. */
function session(start: string): string {
  const builder = new ReportBuilder({ strict: false });
  const at = (ms: number) => new Date(Date.parse(start) + ms);
  const request = (seq: number, method: string, path: string) => ({
    file: requestFile(seq, method, path, at(seq * 17)),
    index: 0,
    line: seq,
  });
  builder.add('order', request(1, 'POST', '/v2/order'), []);
  builder.add('status', request(2, 'PUT', '/v2/order'), [
    error('unknown-order', '', 'no order ORD-9 was created'),
    error('invalid-enum', 'status', '"done" is not a status'),
    warning('status-unchanged', 'status', 'the same status again'),
  ]);
  builder.add('fraud', request(3, 'POST', '/v2/order/mark_fraudulent'), [
    warning('unknown-field', 'x', 'x is not a field'),
  ]);
  return formatReport(builder.build(), 'junit', new Chalk({ level: 0 }), { session: true });
}

type Case = { '@_name': string; '@_classname': string; '@_timestamp': string; failure?: unknown };
const cases = (xml: string): Case[] =>
  new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(xml).testsuites
    .testsuite.testcase;

describe('a sandbox session as JUnit', () => {
  const monday = session('2026-12-05T08:59:17.391Z');
  const tuesday = session('2026-12-06T10:00:00.000Z');

  it('names each test by request order, method, path and rule: the same names in every run', () => {
    expect(cases(monday).map((test) => test['@_name'])).toEqual([
      '#1 POST /v2/order',
      '#2 PUT /v2/order: unknown-order',
      '#2 PUT /v2/order: invalid-enum',
      '#2 PUT /v2/order: status-unchanged',
      '#3 POST /v2/order/mark_fraudulent: unknown-field',
    ]);
    expect(cases(tuesday).map((test) => test['@_name'])).toEqual(cases(monday).map((test) => test['@_name']));
    expect(cases(monday).map((test) => test['@_classname'])).toEqual([
      'sandbox.order',
      'sandbox.status',
      'sandbox.status',
      'sandbox.status',
      'sandbox.fraud',
    ]);
  });

  it('keeps the time in an attribute, never in a name', () => {
    expect(monday).not.toMatch(/name="[^"]*\d{4}-\d\d-\d\dT/);
    expect(cases(monday)[1]!['@_timestamp']).toBe('2026-12-05T08:59:17.425Z');
  });

  it('fails the tests of the rules broken with an error, and counts them', () => {
    expect(cases(monday).map((test) => test.failure !== undefined)).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(monday).toContain('<testsuites name="collect sandbox" tests="5" failures="2" errors="0">');
  });
});
