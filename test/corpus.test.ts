/**
 * Hostile and malformed inputs (test/corpus/): each gets a verdict with located problems and
 * the documented exit code; none crashes, prints a stack trace or reaches an object prototype.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';

/** What a user sees: a report with these problems on these lines and this many records, or a message and exit 2. */
type Verdict =
  { exit: 0 | 1; records: number; problems: [code: string, line: number][] } | { exit: 2; stderr: string };

const CORPUS: Record<string, Verdict> = {
  'json-truncated.json': { exit: 1, records: 2, problems: [['invalid-json', 2]] },
  'json-trailing-garbage.json': { exit: 1, records: 2, problems: [['invalid-json', 1]] },
  'json-string-root.json': { exit: 1, records: 1, problems: [['invalid-json', 1]] },
  'json-number-root.json': { exit: 1, records: 1, problems: [['invalid-json', 1]] },
  'json-scalars-in-array.json': {
    exit: 1,
    records: 4,
    problems: [
      ['invalid-type', 1],
      ['invalid-type', 1],
      ['invalid-type', 1],
      ['invalid-type', 1],
    ],
  },
  'json-unbalanced-brackets.json': {
    exit: 1,
    records: 2,
    problems: [
      ['invalid-json', 1],
      ['invalid-json', 1],
    ],
  },
  'json-proto-keys.json': {
    exit: 0,
    records: 1,
    problems: [
      ['unknown-field', 1],
      ['unknown-field', 1],
    ],
  },
  'json-deep-custom-data.json': { exit: 1, records: 1, problems: [['too-deep', 1]] },
  'json-empty.json': { exit: 0, records: 0, problems: [] },
  'json-whitespace.json': { exit: 0, records: 0, problems: [] },
  'json-duplicate-keys.json': { exit: 1, records: 1, problems: [['invalid-enum', 1]] },
  'ndjson-broken-line.ndjson': { exit: 1, records: 3, problems: [['invalid-json', 2]] },
  'ndjson-array-line.ndjson': { exit: 1, records: 2, problems: [['invalid-type', 1]] },
  'ndjson-bom-crlf.ndjson': { exit: 0, records: 2, problems: [] },
  'ndjson-invalid-utf8.ndjson': { exit: 1, records: 1, problems: [['invalid-utf8', 2]] },
  'ndjson-nul-bytes.ndjson': { exit: 0, records: 1, problems: [] },
  'ndjson-truncated.ndjson.gz': { exit: 2, stderr: 'not a valid gzip stream' },
  'csv-unbalanced-quote.csv': { exit: 2, stderr: 'csv-unbalanced-quote.csv:3: ' },
  'csv-duplicate-headers.csv': { exit: 1, records: 1, problems: [['duplicate-header', 1]] },
  'csv-extra-cells.csv': {
    exit: 1,
    records: 2,
    problems: [
      ['csv-column-count', 2],
      ['csv-column-count', 3],
      ['required', 3],
    ],
  },
  'csv-empty.csv': { exit: 0, records: 0, problems: [] },
  'csv-header-only.csv': { exit: 0, records: 0, problems: [] },
  'csv-bom-crlf.csv': { exit: 0, records: 2, problems: [] },
  'csv-latin1.csv': { exit: 1, records: 0, problems: [['invalid-utf8', 2]] },
  'csv-quote-inside-field.csv': { exit: 2, stderr: 'csv-quote-inside-field.csv:2: ' },
  'csv-proto-headers.csv': {
    exit: 0,
    records: 1,
    problems: [
      ['unknown-field', 1],
      ['unknown-field', 1],
      ['unknown-field', 1],
    ],
  },
  'csv-deep-custom-data.csv': { exit: 1, records: 1, problems: [['too-deep', 2]] },
  'csv-only-newlines.csv': { exit: 0, records: 0, problems: [] },
  'csv-binary-garbage.csv': { exit: 1, records: 0, problems: [['invalid-utf8', 1]] },
  'csv-corrupt.csv.gz': { exit: 2, stderr: 'not a valid gzip stream' },
  'ndjson-50000-levels-deep.ndjson.gz': { exit: 1, records: 2, problems: [['too-deep', 2]] },
  'ndjson-inexact-numbers.ndjson': {
    exit: 1,
    records: 2,
    problems: [
      ['inexact-number', 1],
      ['inexact-number', 2],
    ],
  },
  'csv-100000-columns.csv.gz': { exit: 1, records: 0, problems: [['too-many-columns', 1]] },
  'csv-40-unknown-columns.csv': { exit: 0, records: 1, problems: [['unknown-field', 1]] },
};

const title = (verdict: Verdict) =>
  verdict.exit === 2
    ? 'exit 2, a message'
    : `exit ${verdict.exit}, ${verdict.problems.map(([code]) => code).join(', ') || 'no problems'}`;

describe('the malformed-input corpus', () => {
  it('has an expectation for every file, and at least 25 files', () => {
    expect(readdirSync('test/corpus').sort()).toEqual(Object.keys(CORPUS).sort());
    expect(Object.keys(CORPUS).length).toBeGreaterThanOrEqual(25);
  });

  for (const [file, expected] of Object.entries(CORPUS)) {
    it(`${file}: ${title(expected)}`, async () => {
      const { code, stdout, stderr } = await runCli([
        'status',
        `test/corpus/${file}`,
        '--dry-run',
        '--no-state',
        '--format',
        'json',
      ]);
      expect(stderr).not.toMatch(/\n\s+at |internal error/);
      const seen =
        expected.exit === 2
          ? { exit: code, stderr: stderr.includes(expected.stderr) ? expected.stderr : stderr, stdout }
          : (() => {
              const report = JSON.parse(stdout) as {
                summary: { records: number };
                issues: { code: string; line: number }[];
              };
              return {
                exit: code,
                records: report.summary.records,
                problems: report.issues.map((issue) => [issue.code, issue.line]),
              };
            })();
      expect(seen).toEqual(expected.exit === 2 ? { ...expected, stdout: '' } : expected);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
    });
  }
});

describe('record size', () => {
  it(
    'reports a record over --max-record-bytes with its line, in every format, and reads on (JSON, ' +
      'NDJSON)',
    async () => {
      const big = 'x'.repeat(5000);
      const json = await runCli(
        [
          'status',
          '-',
          '--input-format',
          'json',
          '--dry-run',
          '--no-state',
          '--format',
          'json',
          '--max-record-bytes',
          '1000',
        ],
        {
          stdin:
            `[\n{"id":"A","status":"approved"},\n{"id":"B","status":"approved","status_reason":"${big}` +
            `"},\n{"id":"C","status":"pending"}]`,
        },
      );
      expect(JSON.parse(json.stdout).issues).toEqual([
        expect.objectContaining({ code: 'record-too-large', line: 3, index: 1 }),
      ]);
      expect(JSON.parse(json.stdout).summary.records).toBe(3);
      const ndjson = await runCli(
        [
          'status',
          '-',
          '--input-format',
          'ndjson',
          '--dry-run',
          '--no-state',
          '--format',
          'json',
          '--max-record-bytes',
          '1000',
        ],
        { stdin: `{"id":"A","status":"approved","status_reason":"${big}"}\n{"id":"B","status":"pending"}\n` },
      );
      expect(JSON.parse(ndjson.stdout).issues).toEqual([
        expect.objectContaining({ code: 'record-too-large', line: 1, index: 0 }),
      ]);
      const csv = await runCli(
        [
          'status',
          '-',
          '--input-format',
          'csv',
          '--dry-run',
          '--no-state',
          '--format',
          'json',
          '--max-record-bytes',
          '1000',
        ],
        { stdin: `id,status,status_reason\nA,approved,ok\nB,approved,${big}\n` },
      );
      expect(csv.code).toBe(1);
      expect(JSON.parse(csv.stdout).issues).toEqual([expect.objectContaining({ code: 'record-too-large' })]);
    },
  );
});
