import { describe, expect, it } from 'vitest';
import { error, warning } from '../core/issue.js';
import { ReportBuilder } from '../report/report.js';
import type { RunEvent } from '../report/runEvents.js';
import { RunLedger } from './runLedger.js';

const at = (file: string, index: number | null) => ({ file, index, line: index === null ? 1 : index + 2 });

/** A run's findings written to a ledger; returns the ledger, the report folded from its events, and the events. */
function run(strict: boolean, write: (ledger: RunLedger) => void, warnBeforeSending?: ReadonlySet<string>) {
  const events: RunEvent[] = [];
  const ledger = new RunLedger({
    strict,
    emit: (event) => events.push(event),
    ...(warnBeforeSending ? { warnBeforeSending } : {}),
  });
  write(ledger);
  const report = new ReportBuilder({ strict });
  for (const event of events) report.apply(event);
  return { ledger, report: report.build(), events };
}

function findings(ledger: RunLedger): void {
  ledger.add('status', at('s.csv', null), [
    warning('unknown-field', 'colour', 'the column colour is unknown'),
  ]);
  const status0 = !ledger.add('status', at('s.csv', 0), []);
  ledger.add('status', at('s.csv', 1), [error('required', 'id', 'id is required')]);
  ledger.add('order', at('o.csv', 0), [warning('missing-recommended', 'email', 'no email')]);
  const order1 = !ledger.add('order', at('o.csv', 1), []);
  ledger.addLater('order', at('o.csv', 1), [error('duplicate-order', 'id', 'twice')], order1);
  ledger.addLater('status', at('s.csv', 0), [warning('status-unchanged', 'status', 'same')], status0);
  ledger.note('unknown-order', 'skipped', 2);
}

describe('RunLedger', () => {
  it('steers by the same counts as the report folded from its events, with --strict and without', () => {
    for (const strict of [false, true]) {
      const { ledger, report } = run(strict, findings);
      expect([ledger.validRecords, ledger.invalidRecords]).toEqual([
        report.summary.valid,
        report.summary.invalid,
      ]);
    }
    expect(run(false, findings).report.summary).toMatchObject({ records: 4, valid: 2, invalid: 2 });
    // Under --strict the header warning of s.csv faults its records, and the order's warning faults it.
    expect(run(true, findings).report.summary).toMatchObject({ records: 4, valid: 0, invalid: 4 });
  });

  it('says which notes and failures it saw, for the exit code', () => {
    const { ledger } = run(false, (l) => {
      findings(l);
      l.addSent(
        'order',
        at('o.csv', 0),
        { kind: 'failed', issue: error('key-refused', '', 'refused') },
        true,
      );
    });
    expect([ledger.saw('unknown-order'), ledger.saw('key-refused'), ledger.saw('interrupted')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('keeps the warnings for the question before sending only when asked, and the notes of the rules that warn', () => {
    const warned = new Set(['fraud-after-service-decline']);
    const { ledger } = run(
      false,
      (l) => {
        findings(l);
        l.note('fraud-after-service-decline', 'decision unknown', 1);
        l.note('fraud-after-service-decline', 'decision unknown', 1);
      },
      warned,
    );
    expect(ledger.warningsBeforeSending()).toEqual([
      'unknown-field colour: the column colour is unknown',
      'status-unchanged status: same',
      'missing-recommended email: no email',
      'fraud-after-service-decline: decision unknown',
    ]);
    expect(run(false, findings).ledger.warningsBeforeSending()).toEqual([]);
  });
});
