/**
 * Hostile and malformed inputs (test/corpus/): each gets a verdict with located problems and
 * the documented exit code; none crashes, prints a stack trace or reaches an object prototype.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';

const CORPUS: Record<string, { exit: number; codes?: string[]; stderr?: string; records?: number }> = {
  'json-truncated.json': { exit: 1, codes: ['invalid-json'], records: 2 },
  'json-trailing-garbage.json': { exit: 1, codes: ['invalid-json'] },
  'json-string-root.json': { exit: 1, codes: ['invalid-json'] },
  'json-number-root.json': { exit: 1, codes: ['invalid-json'] },
  'json-scalars-in-array.json': { exit: 1, codes: ['invalid-type'], records: 4 },
  'json-unbalanced-brackets.json': { exit: 1, codes: ['invalid-json'] },
  'json-proto-keys.json': { exit: 0, codes: ['unknown-field'], records: 1 },
  'json-deep-custom-data.json': { exit: 1, codes: ['too-deep'] },
  'json-empty.json': { exit: 0, records: 0 },
  'json-whitespace.json': { exit: 0, records: 0 },
  'json-duplicate-keys.json': { exit: 1, codes: ['invalid-enum'] },
  'ndjson-broken-line.ndjson': { exit: 1, codes: ['invalid-json'], records: 3 },
  'ndjson-array-line.ndjson': { exit: 1, codes: ['invalid-type'], records: 2 },
  'ndjson-bom-crlf.ndjson': { exit: 0, records: 2 },
  'ndjson-invalid-utf8.ndjson': { exit: 1, codes: ['invalid-utf8'], records: 1 },
  'ndjson-nul-bytes.ndjson': { exit: 0, records: 1 },
  'ndjson-truncated.ndjson.gz': { exit: 2, stderr: 'not a valid gzip stream' },
  'csv-unbalanced-quote.csv': { exit: 1, codes: ['invalid-csv'], records: 2 },
  'csv-duplicate-headers.csv': { exit: 1, codes: ['duplicate-header'] },
  'csv-extra-cells.csv': { exit: 1, codes: ['csv-column-count'], records: 2 },
  'csv-empty.csv': { exit: 0, records: 0 },
  'csv-header-only.csv': { exit: 0, records: 0 },
  'csv-bom-crlf.csv': { exit: 0, records: 2 },
  'csv-latin1.csv': { exit: 1, codes: ['invalid-utf8'] },
  'csv-quote-inside-field.csv': { exit: 1, codes: ['invalid-csv'] },
  'csv-proto-headers.csv': { exit: 0, codes: ['unknown-field'], records: 1 },
  'csv-deep-custom-data.csv': { exit: 1, codes: ['too-deep'] },
  'csv-only-newlines.csv': { exit: 0, records: 0 },
  'csv-binary-garbage.csv': { exit: 1, codes: ['invalid-utf8'] },
  'csv-corrupt.csv.gz': { exit: 2, stderr: 'not a valid gzip stream' },
};

describe('the malformed-input corpus', () => {
  it('has an expectation for every file, and at least 25 files', () => {
    expect(readdirSync('test/corpus').sort()).toEqual(Object.keys(CORPUS).sort());
    expect(Object.keys(CORPUS).length).toBeGreaterThanOrEqual(25);
  });

  for (const [file, expected] of Object.entries(CORPUS)) {
    it(`${file}: exit ${expected.exit}${expected.codes ? `, ${expected.codes.join(', ')}` : ''}`, async () => {
      const { code, stdout, stderr } = await runCli(['status', `test/corpus/${file}`, '--dry-run', '--no-state', '--format', 'json']);
      expect(code).toBe(expected.exit);
      expect(stderr).not.toMatch(/\n\s+at |internal error/);
      if (expected.stderr) expect(stderr).toContain(expected.stderr);
      if (code !== 2) {
        const report = JSON.parse(stdout);
        const codes = report.issues.map((issue: { code: string }) => issue.code);
        for (const wanted of expected.codes ?? []) expect(codes).toContain(wanted);
        if (expected.records !== undefined) expect(report.summary.records).toBe(expected.records);
        for (const issue of report.issues) expect(issue.line === null || issue.line >= 1).toBe(true);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
    });
  }
});

describe('record size', () => {
  it('reports a record over --max-record-bytes with its line, in every format, and reads on (JSON, NDJSON)', async () => {
    const big = 'x'.repeat(5000);
    const json = await runCli(['status', '-', '--input-format', 'json', '--dry-run', '--no-state', '--format', 'json', '--max-record-bytes', '1000'],
      { stdin: `[\n{"id":"A","status":"approved"},\n{"id":"B","status":"approved","status_reason":"${big}"},\n{"id":"C","status":"pending"}]` });
    expect(JSON.parse(json.stdout).issues).toEqual([expect.objectContaining({ code: 'record-too-large', line: 3, index: 1 })]);
    expect(JSON.parse(json.stdout).summary.records).toBe(3);
    const ndjson = await runCli(['status', '-', '--input-format', 'ndjson', '--dry-run', '--no-state', '--format', 'json', '--max-record-bytes', '1000'],
      { stdin: `{"id":"A","status":"approved","status_reason":"${big}"}\n{"id":"B","status":"pending"}\n` });
    expect(JSON.parse(ndjson.stdout).issues).toEqual([expect.objectContaining({ code: 'record-too-large', line: 1, index: 0 })]);
    const csv = await runCli(['status', '-', '--input-format', 'csv', '--dry-run', '--no-state', '--format', 'json', '--max-record-bytes', '1000'],
      { stdin: `id,status,status_reason\nA,approved,ok\nB,approved,${big}\n` });
    expect(csv.code).toBe(1);
    expect(JSON.parse(csv.stdout).issues).toEqual([expect.objectContaining({ code: 'record-too-large' })]);
  });
});
