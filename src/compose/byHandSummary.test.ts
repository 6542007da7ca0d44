import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { ReportBuilder } from '../report/report.js';
import { byHandSummary, type ByHandRun } from './byHandSummary.js';

const plain = new Chalk({ level: 0 });
const at = { file: '(command line)', index: 0, line: null };

function run(
  extra: Partial<ByHandRun> = {},
  fill: (builder: ReportBuilder) => void = (b) => b.add('fraud', at, []),
): ByHandRun {
  const builder = new ReportBuilder({ strict: false });
  fill(builder);
  return {
    noun: 'fraud mark',
    dryRun: false,
    previewed: true,
    report: builder.build(),
    declined: false,
    interrupted: false,
    exitCode: 0,
    ...extra,
  };
}

describe('byHandSummary', () => {
  it('an accepted mark: its status, attempts and the answer as indented JSON', () => {
    expect(
      byHandSummary(
        run({ outcome: { kind: 'accepted', status: 200, text: '{"message":"ok"}', attempts: 2 } }),
        plain,
      ),
    ).toBe(
      'the service answered:\n{\n  "message": "ok"\n}\n✔ sent: the service accepted the fraud mark ' +
        '(HTTP 200, 2 attempts)\n',
    );
  });
  it("a long answer is cut, and a peer's control characters are escaped", () => {
    const text = JSON.stringify({ lines: Array.from({ length: 100 }, (_, n) => `line ${n}\u001b[2J`) });
    const out = byHandSummary(
      run({ outcome: { kind: 'rejected', status: 422, text, message: 'x', attempts: 1 } }),
      plain,
    );
    expect(out).not.toContain('\u001b');
    expect(out).toContain('line 0\\u001b[2J');
    expect(out).not.toContain('line 99');
    expect(out).toContain('--results FILE keeps the whole answer');
  });
  it('an invalid mark: its issues (the record is not shown whole), then why nothing was sent', () => {
    const out = byHandSummary(
      run({ previewed: false, exitCode: 1 }, (b) =>
        b.add('fraud', at, [
          error('fraud-comment-required', 'fraud_comment', 'fraud_comment is required', {
            value: { order_id: 'ORD-1' },
            hint: 'name it',
          }),
          warning('some-warning', 'x', 'a hint', { value: 'v' }),
        ]),
      ),
      plain,
    );
    expect(out).toContain('✖ error   fraud_comment  fraud_comment is required  [fraud-comment-required]');
    expect(out).toContain('(got "v")');
    expect(out).not.toContain('ORD-1');
    expect(out.trimEnd().split('\n').at(-1)).toBe('✖ nothing sent: the fraud mark is not valid (see above)');
  });
  it(
    'the notes of a file run are left out; a rule that warns before sending is said once, unless ' +
      'already shown',
    () => {
      const fill = (b: ReportBuilder) => {
        b.add('fraud', at, []);
        b.note('unknown-order', 'skipped: add the order files');
        b.note('fraud-after-service-decline', 'not checked: decision unknown', 1);
      };
      const dry = byHandSummary(run({ dryRun: true, previewed: false }, fill), plain);
      expect(dry).not.toContain('unknown-order');
      expect(dry).toContain('fraud-after-service-decline: not checked');
      expect(dry.trimEnd().split('\n').at(-1)).toBe('✔ valid; nothing sent (--dry-run)');
      expect(
        byHandSummary(
          run({ outcome: { kind: 'accepted', status: 201, text: '', attempts: 1 } }, fill),
          plain,
        ),
      ).not.toContain('fraud-after-service-decline');
    },
  );
  it('says why nothing was sent: answered no, already accepted, rejected before, vetoed, not delivered', () => {
    expect(byHandSummary(run({ declined: true, exitCode: 1 }), plain)).toBe(
      '✖ nothing sent: you answered no\n',
    );
    expect(
      byHandSummary(
        run({}, (b) => (b.add('fraud', at, []), b.addSkipped())),
        plain,
      ),
    ).toContain('already accepted this same fraud mark');
    expect(
      byHandSummary(
        run({}, (b) => (b.add('fraud', at, []), b.addSkipped(), b.note('rejected-before', 'x', 1))),
        plain,
      ),
    ).toContain('rejected this same fraud mark in an earlier run');
    expect(
      byHandSummary(
        run({
          outcome: {
            kind: 'vetoed',
            code: 'fraud-after-service-decline',
            message: 'the service declined ORD-1',
          },
          exitCode: 1,
        }),
        plain,
      ),
    ).toBe('✖ nothing sent: the service declined ORD-1 [fraud-after-service-decline]\n');
    expect(
      byHandSummary(
        run({ outcome: { kind: 'failed', reason: 'connection refused', attempts: 6 }, exitCode: 3 }),
        plain,
      ),
    ).toContain('✖ delivery failed: connection refused (6 attempts)');
  });

  it('marks its verdict, the last unindented line, from the exit code alone', () => {
    const accepted = { kind: 'accepted', status: 200, text: '{}', attempts: 1 } as const;
    const verdict = (out: string) =>
      out
        .split('\n')
        .filter((line) => /^\S/.test(line))
        .at(-1);
    expect(verdict(byHandSummary(run({ outcome: accepted, exitCode: 0 }), plain))).toMatch(/^✔ sent/);
    expect(verdict(byHandSummary(run({ interrupted: true, exitCode: 130 }), plain))).toMatch(
      /^⚠ interrupted:/,
    );
    expect(verdict(byHandSummary(run({ exitCode: 2 }), plain))).toMatch(/^✖ stopped:/);
  });
});
