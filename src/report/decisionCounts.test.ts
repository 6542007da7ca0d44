import { describe, expect, it } from 'vitest';
import {
  countDecision,
  DECISION_LENGTH,
  DECISIONS_KEPT,
  decisionName,
  OTHER_DECISIONS,
} from './decisionCounts.js';
import { formatReport } from './formatReport.js';
import { Chalk } from 'chalk';
import { InsightsBuilder } from './insights.js';
import { ReportBuilder } from './report.js';

/** 3,000 distinct 2 KB decisions, as a hostile service or upstream may answer. */
const hostile = (i: number) => `${i}-${'d'.repeat(2048)}`;

describe('countDecision', () => {
  it('counts a few distinct decisions by name, cut to a length, and the rest as other', () => {
    const counts: Record<string, number> = {};
    for (const decision of ['approve', 'reject', 'approve']) countDecision(counts, decision);
    for (let i = 0; i < 3_000; i++) countDecision(counts, hostile(i));
    countDecision(counts, 'approve');
    expect(Object.keys(counts)).toHaveLength(DECISIONS_KEPT + 1);
    expect(counts.approve).toBe(3);
    expect(counts.reject).toBe(1);
    expect(counts[OTHER_DECISIONS]).toBe(3_000 - (DECISIONS_KEPT - 2));
    for (const name of Object.keys(counts)) expect([...name].length).toBeLessThanOrEqual(DECISION_LENGTH);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(3_004);
  });

  it('cuts by characters, not halves of one, and counts names an object holds like any other', () => {
    expect(decisionName('é'.repeat(100))).toBe(`${'é'.repeat(DECISION_LENGTH - 1)}…`);
    expect(decisionName('🙂'.repeat(100))).toBe(`${'🙂'.repeat(DECISION_LENGTH - 1)}…`);
    const counts: Record<string, number> = {};
    for (const decision of ['__proto__', 'constructor', '__proto__']) countDecision(counts, decision);
    expect(JSON.parse(JSON.stringify(counts))).toEqual(
      JSON.parse('{"__proto__": 2, "constructor": 1}') as Record<string, number>,
    );
  });
});

describe('decisions in the report model (L1 of issue 39)', () => {
  it("a run's report and a session's insights stay small whatever the service answers", () => {
    const builder = new ReportBuilder({ strict: false });
    const insights = new InsightsBuilder(() => 0);
    for (let i = 0; i < 3_000; i++) {
      builder.addSent(
        'order',
        { file: 'o.csv', index: i, line: i + 2 },
        { kind: 'accepted', decision: hostile(i) },
        true,
      );
      insights.answered(200, hostile(i));
    }
    const report = builder.build();
    expect(Object.keys(report.delivery!.decisions)).toHaveLength(DECISIONS_KEPT + 1);
    expect(Object.keys(insights.build().decisions)).toHaveLength(DECISIONS_KEPT + 1);
    const plain = new Chalk({ level: 0 });
    expect(formatReport(report, 'json', plain).length).toBeLessThan(20_000);
    expect(formatReport(report, 'pretty', plain).length).toBeLessThan(20_000);
    const html = formatReport(report, 'html', plain, { insights: insights.build() });
    expect(html.length).toBeLessThan(60_000);
  });
});
