import { readdirSync, rmSync } from 'node:fs';
import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { formatReport, reportChunks, reportFormats } from './formatReport.js';
import { IssueSpillFile } from './issueSpillFile.js';
import { ReportBuilder, type ReportOptions } from './report.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const plain = new Chalk({ level: 0 });
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A run's worth of issues in an awkward order: two files, file-level problems, flow-rule issues arriving late
 * for early records, a rejection.
 */
function fill(builder: ReportBuilder, records: number): void {
  builder.add('order', { file: 'a.csv', index: null, line: 1 }, [
    warning('unknown-field', 'colour', 'colour is not a field'),
  ]);
  for (let index = 0; index < records; index++) {
    const at = { file: 'a.csv', index, line: index + 2 };
    builder.add(
      'order',
      at,
      index % 3 === 0
        ? []
        : [
            error('invalid-number', `payments.${index % 4}.value`, `"${index},5" is not a number`, {
              value: `${index},5`,
              hint: 'use a dot',
            }),
          ],
    );
  }
  for (let index = 0; index < records; index += 2) {
    builder.add('status', { file: 'b.ndjson', index, line: index + 1 }, [
      warning('missing-recommended', 'status', 'status is missing'),
      error('required', 'id', 'id is required'),
    ]);
  }
  builder.add('status', { file: 'b.ndjson', index: null, line: null }, [
    error('invalid-json', '', 'line 4 is not JSON'),
  ]);
  for (let index = records - 1; index >= 0; index -= 5) {
    builder.addLater(
      'order',
      { file: 'a.csv', index, line: index + 2 },
      [error('duplicate-order', 'id', `ORD-${index} twice`)],
      index % 3 === 0,
    );
  }
  builder.addSent(
    'order',
    { file: 'a.csv', index: 0, line: 2 },
    { kind: 'rejected', issue: error('rejected-by-service', '', 'the service said no') },
    true,
  );
  builder.note('unknown-order', 'skipped: no creations', 3);
}

function spilled(records: number, options: Partial<ReportOptions> = {}) {
  const dir = tempDir('collect-spill-');
  dirs.push(dir);
  const spill = new IssueSpillFile(dir);
  const builder = new ReportBuilder({ strict: false, spill, spillAt: 2, ...options });
  fill(builder, records);
  return { builder, spill, dir };
}

describe('reports whose issues went to a spill file', () => {
  it('are written exactly as the same report held in memory, in every format', () => {
    const memory = new ReportBuilder({ strict: false });
    fill(memory, 300);
    const { builder, spill, dir } = spilled(300);
    expect(readdirSync(dir)).toHaveLength(1);
    const report = builder.build();
    const issues = builder.issues();
    expect(report.issues).toHaveLength(20);
    expect(issues.count).toBe(memory.build().issues.length);
    for (const format of reportFormats) {
      for (const allIssues of [false, true]) {
        const expected = formatReport(memory.build(), format, plain, { allIssues });
        expect(
          [...reportChunks(report, issues, format, plain, { allIssues })].join(''),
          `${format}${allIssues ? ' --all-issues' : ''}`,
        ).toBe(expected);
      }
    }
    spill.close();
    expect(readdirSync(dir)).toEqual([]);
  });
  it('are read back in report order however many runs were merged', () => {
    const memory = new ReportBuilder({ strict: false });
    fill(memory, 2000);
    const { builder, spill } = spilled(2000, { spillAt: 3 });
    expect([...builder.issues()]).toEqual(memory.build().issues);
    spill.close();
  });
  it('keep no more than spillAt issues in memory: the rest go to the spill as runs', () => {
    const runs: number[] = [];
    const builder = new ReportBuilder({
      strict: false,
      spillAt: 100,
      spill: { write: (run) => runs.push([...run].length) - 1, read: () => [] },
    });
    for (let index = 0; index < 1000; index++)
      builder.add('order', { file: 'a.csv', index, line: index + 2 }, [
        error('required', 'id', 'id is required'),
      ]);
    expect(runs).toEqual(Array.from({ length: 10 }, () => 100));
    expect(builder.build().issues).toHaveLength(20);
    expect(builder.issues().count).toBe(1000);
  });
  it('without a spill keep every issue in memory, as the sandbox and the library use them', () => {
    const builder = new ReportBuilder({ strict: false, spillAt: 2 });
    fill(builder, 50);
    expect(builder.build().issues.length).toBe(builder.issues().count);
  });
});
