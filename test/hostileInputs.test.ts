import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const json = (stdout: string) =>
  JSON.parse(stdout) as {
    summary: Record<string, number>;
    issues: { code: string; message: string; path: string; index: number | null }[];
  };

describe('hostile inputs get one clear verdict', () => {
  it('a line nesting 50,000 levels is too-deep, also when written to --rejects (no stack overflow)', async () => {
    const dir = tempDir('collect-hostile-');
    const text = gunzipSync(readFileSync('test/corpus/ndjson-50000-levels-deep.ndjson.gz')).toString();
    const { code, stdout, stderr } = await runCli(
      [
        'status',
        '-',
        '--input-format',
        'ndjson',
        '--dry-run',
        '--no-state',
        '--format',
        'json',
        '--rejects',
        join(dir, 'rejects.ndjson'),
      ],
      { stdin: text },
    );
    expect(stderr).not.toContain('internal error');
    expect(code).toBe(1);
    expect(json(stdout).issues.map((issue) => [issue.code, issue.index])).toEqual([['too-deep', 1]]);
    const rejected = JSON.parse(readFileSync(join(dir, 'rejects.ndjson'), 'utf8')) as {
      collect_reason: string;
      collect_raw: string;
    };
    expect(rejected.collect_reason).toContain('too-deep');
    expect(rejected.collect_raw).toBe(text.split('\n')[1]);
  });

  it('a CSV header of 100,000 named columns is one too-many-columns error, and no row is read', async () => {
    const header = ['id', 'status', ...Array.from({ length: 100_000 }, (_, n) => `col${n}`)].join(',');
    const { code, stdout } = await runCli(
      ['status', '-', '--input-format', 'csv', '--dry-run', '--no-state', '--format', 'json'],
      { stdin: `${header}\nS1,approved\n` },
    );
    expect(code).toBe(1);
    const report = json(stdout);
    expect(report.issues).toHaveLength(1);
    expect(report.issues[0]).toMatchObject({ code: 'too-many-columns', index: null });
    expect(report.issues[0]!.message).toContain(
      '100,002 columns ("id", "status", "col0", "col1", "col2", …)',
    );
    expect(report.summary.records).toBe(0);
  });

  it(
    'thousands of unknown or unnamed columns under the limit are one warning each, naming the first ' +
      'few in header order',
    async () => {
      const header = [
        'id',
        'status',
        ...Array.from({ length: 3000 }, (_, n) => `extra${n}`),
        ...Array(2000).fill(''),
      ].join(',');
      const row = `S1,approved${','.repeat(5000)}`;
      const { code, stdout } = await runCli(
        ['status', '-', '--input-format', 'csv', '--dry-run', '--no-state', '--format', 'json'],
        { stdin: `${header}\n${row}\n` },
      );
      expect(code).toBe(0);
      const issues = json(stdout).issues;
      expect(issues.map((issue) => issue.code).sort()).toEqual(['empty-header', 'unknown-field']);
      expect(issues.find((issue) => issue.code === 'unknown-field')!.message).toBe(
        '3,000 columns are not fields the service knows (extra0, extra1, extra2, extra3, extra4 and ' +
          '2,995 more); their cells are sent as they are',
      );
      expect(issues.find((issue) => issue.code === 'empty-header')!.message).toBe(
        'columns 3003, 3004, 3005, 3006, 3007 and 1,995 more have no header; their cells are ignored',
      );
    },
  );

  it('numbers a double cannot hold are reported in CSV and JSON, never sent rounded', async () => {
    for (const [format, input] of [
      [
        'csv',
        'id,creation_datetime,total_paid_value\n' +
          'A,2024-03-01T14:30:00Z,123456789012345678901234567890\nB,2024-03-01T14:30:00Z,1e400\n' +
          'C,2024-03-01T14:30:00Z,10.50\n',
      ],
      [
        'json',
        '[{"id":"A","creation_datetime":"2024-03-01T14:30:00Z",' +
          '"total_paid_value":123456789012345678901234567890},{"id":"B",' +
          '"creation_datetime":"2024-03-01T14:30:00Z","total_paid_value":1e400},{"id":"C",' +
          '"creation_datetime":"2024-03-01T14:30:00Z","total_paid_value":10.50}]',
      ],
    ]) {
      const { code, stdout } = await runCli(
        ['order', '-', '--input-format', format!, '--dry-run', '--no-state', '--format', 'json'],
        { stdin: input! },
      );
      expect(code).toBe(1);
      const report = json(stdout);
      const numbers = report.issues.filter((issue) => issue.path === 'total_paid_value');
      expect(numbers.map((issue) => [issue.code, issue.index])).toEqual([
        ['inexact-number', 0],
        ['inexact-number', 1],
      ]);
      expect(numbers[0]!.message).toContain('it would be sent as 1.2345678901234568e+29');
      expect(numbers[1]!.message).toBe('1e400 is too large for a number (it would become Infinity)');
      expect(report.summary).toMatchObject({ records: 3, valid: 1, invalid: 2 });
    }
  });
});
