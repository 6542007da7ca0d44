import chalk from 'chalk';
import { describe, expect, it } from 'vitest';
import { error } from '../core/issue.js';
import { reportChunks } from '../report/formatReport.js';
import { ReportBuilder } from '../report/report.js';
import { issuesOf } from '../report/reportIssues.js';
import { chargebackReportChunks, chargebacksJson } from './chargebackReport.js';
import type { MatchResult, RowVerdict } from './matchChargebacks.js';
import { outcomes } from './matchSources.js';

function matchOf(rows: number): MatchResult {
  const verdicts: RowVerdict[] = Array.from({ length: rows }, (_, i) => ({
    file: 'r.csv',
    index: i,
    line: i + 2,
    outcome: 'unmatched',
    acquirerId: `TX-${i}`,
    issues: [
      error('unknown-acquirer-id', 'acquirer_id', `no order carries "TX-${i}"`, { hint: 'give --orders' }),
    ],
  }));
  const counts = Object.fromEntries(outcomes.map((o) => [o, 0])) as MatchResult['counts'];
  counts.unmatched = rows;
  return { verdicts, marks: [], counts, matchedBy: { acquirer_id: 0, order_id: 0, arn: 0, composite: 0 } };
}

describe('chargebacks --format json', () => {
  // Before: the whole document was one string (exit 70 "Invalid string length" at a million rows).
  it('is written piece by piece, the same document as the whole one', () => {
    const match = matchOf(2000);
    const report = new ReportBuilder({ strict: false }).build();
    const issues = issuesOf(report.issues);
    const chunks = [
      ...chargebackReportChunks(match, report, issues, 'json', chalk, {
        dryRun: true,
        allIssues: false,
        exitCode: 0,
      }),
    ];
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(10_000);
    const run = JSON.parse([...reportChunks(report, issues, 'json', chalk)].join('')) as object;
    expect(chunks.join('')).toBe(
      `${JSON.stringify({ chargebacks: chargebacksJson(match), ...run }, null, 2)}\n`,
    );
  });

  it('writes an empty report as the same document', () => {
    const match = matchOf(0);
    const report = new ReportBuilder({ strict: false }).build();
    const issues = issuesOf(report.issues);
    const text = [
      ...chargebackReportChunks(match, report, issues, 'json', chalk, {
        dryRun: true,
        allIssues: false,
        exitCode: 0,
      }),
    ].join('');
    const run = JSON.parse([...reportChunks(report, issues, 'json', chalk)].join('')) as object;
    expect(text).toBe(`${JSON.stringify({ chargebacks: chargebacksJson(match), ...run }, null, 2)}\n`);
  });
});
