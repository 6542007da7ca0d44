/**
 * The flow rules end to end: within one file, across two files of a backfill, and across two
 * runs sharing a state folder (the second run knowing what the first recorded).
 */
import { describe, expect, it } from 'vitest';
import { SqliteState } from '../src/state/sqlite/sqliteState.js';
import { backfill, nd, orderRecord } from './helpers/history.js';
import { freshStateDir } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const only = (issues: string[], code: string) => issues.filter((issue) => issue.startsWith(`${code} `));

describe('unknown-order', () => {
  it('across two files: faults the update of an order no file creates', async () => {
    const { issues, code } = await backfill(
      {
        'order.ndjson': nd(orderRecord('A')),
        'status.ndjson': nd({ id: 'A', status: 'approved' }, { id: 'C', status: 'approved' }),
      },
      freshStateDir(),
    );
    expect(only(issues, 'unknown-order')).toEqual(['unknown-order status.ndjson#1']);
    expect(code).toBe(1);
  });
  it('across two runs: knows the orders the first run created', async () => {
    const state = freshStateDir();
    await backfill({ 'order.ndjson': nd(orderRecord('A')) }, state);
    const second = await backfill(
      { 'status.ndjson': nd({ id: 'A', status: 'approved' }, { id: 'C', status: 'approved' }) },
      state,
    );
    expect(only(second.issues, 'unknown-order')).toEqual(['unknown-order status.ndjson#1']);
  });
  it('within one file of updates and no known creation: skipped, said once', async () => {
    const { issues, notes, code } = await backfill(
      { 'status.ndjson': nd({ id: 'A', status: 'approved' }, { id: 'C', status: 'approved' }) },
      freshStateDir(),
    );
    expect(issues).toEqual([]);
    expect(notes.filter((n) => n === 'unknown-order')).toEqual(['unknown-order']);
    expect(code).toBe(0);
  });
});

describe('duplicate-order', () => {
  it('within one file: a different body is an error, an identical repeat a warning', async () => {
    const { report } = await backfill(
      {
        'order.ndjson': nd(
          orderRecord('A'),
          orderRecord('A', { total_paid_value: 11 }),
          orderRecord('A'),
          orderRecord('B'),
        ),
      },
      freshStateDir(),
    );
    expect(report.issues.map((i) => `${i.severity} ${i.code} #${i.index}`)).toEqual([
      'error duplicate-order #1',
      'warning duplicate-order #2',
    ]);
  });
  it('across two files', async () => {
    const { issues } = await backfill(
      {
        'order-1.ndjson': nd(orderRecord('A')),
        'order-2.ndjson': nd(orderRecord('A', { total_paid_value: 11 }), orderRecord('B')),
      },
      freshStateDir(),
    );
    expect(issues).toEqual(['duplicate-order order-2.ndjson#0']);
  });
  it(
    'within a backfill of creations and updates (creations remembered as they are read): repeats are ' +
      'judged against the run, not taken for an earlier run',
    async () => {
      const state = freshStateDir();
      // A state that already knows an order: its reads are real reads, which would see the run's own rows.
      await backfill({ 'order.ndjson': nd(orderRecord('Z')) }, state);
      const files = {
        'order.ndjson': nd(
          orderRecord('A', { status: 'pending' }),
          orderRecord('A', { status: 'pending' }),
          orderRecord('B'),
          orderRecord('B', { total_paid_value: 11 }),
        ),
        'status.ndjson': nd({ id: 'A', status: 'approved' }, { id: 'A', status: 'approved' }),
      };
      const { report, issues } = await backfill(files, state);
      expect(report.issues.map((i) => `${i.severity} ${i.code}`)).toEqual([
        'warning duplicate-order',
        'error duplicate-order',
        'warning status-unchanged',
      ]);
      expect(issues).toEqual([
        'duplicate-order order.ndjson#1',
        'duplicate-order order.ndjson#3',
        'status-unchanged status.ndjson#1',
      ]);
      // Each repeat names the first creation's line in this run.
      const messages = (report.issues as unknown as { message: string }[]).map((issue) => issue.message);
      expect(messages[0]).toMatch(/first at .*order\.ndjson:1\)/);
      expect(messages[1]).toMatch(/first at .*order\.ndjson:3\)/);
      // What the run remembered: the orders, and A's last status, which a later run's updates are judged against.
      const later = await backfill(
        {
          'status.ndjson': nd(
            { id: 'A', status: 'approved', status_reason: 'again' },
            { id: 'B', status: 'approved' },
          ),
        },
        state,
      );
      expect(later.issues).toEqual(['status-unchanged status.ndjson#0']);
    },
  );
  it(
    'a backfill stopped while reading (--max-errors) keeps the creations it remembered, as a file of ' +
      'creations alone does',
    async () => {
      const state = freshStateDir();
      const stopped = await backfill(
        {
          'order.ndjson': nd(
            orderRecord('A'),
            orderRecord('B', { total_paid_value: 'ten' }),
            orderRecord('C'),
          ),
          'status.ndjson': nd({ id: 'A', status: 'approved' }),
        },
        state,
        ['--max-errors', '1'],
      );
      expect(stopped.notes).toContain('max-errors');
      const later = await backfill(
        { 'status.ndjson': nd({ id: 'A', status: 'approved' }, { id: 'C', status: 'approved' }) },
        state,
      );
      // A was read and remembered before the stop; C was never read.
      expect(later.issues).toEqual(['unknown-order status.ndjson#1']);
    },
  );
  it('across two runs: a re-run of the same creation passes, a changed one does not', async () => {
    const state = freshStateDir();
    await backfill({ 'order.ndjson': nd(orderRecord('A')) }, state);
    expect((await backfill({ 'order.ndjson': nd(orderRecord('A')) }, state)).issues).toEqual([]);
    expect(
      (await backfill({ 'order.ndjson': nd(orderRecord('A', { total_paid_value: 11 })) }, state)).issues,
    ).toEqual(['duplicate-order order.ndjson#0']);
  });
});

describe('fraud-after-service-decline', () => {
  it("across two runs: faults a fraud mark for an order the service's evaluation rejected", async () => {
    const state = freshStateDir();
    await backfill(
      { 'order.ndjson': nd(orderRecord('A', { evaluate: true }), orderRecord('B', { evaluate: true })) },
      state,
    );
    // The decisions a sending run would have recorded (sending arrives with issue 4).
    const store = SqliteState.open(state);
    store.rememberDecision('A', 'reject');
    store.rememberDecision('B', 'approve');
    store.close();
    const second = await backfill(
      {
        'fraud.ndjson': nd(
          { order_id: 'A', fraud_signal_type: 'chargeback' },
          { order_id: 'B', fraud_signal_type: 'chargeback' },
        ),
      },
      state,
    );
    expect(second.issues).toEqual(['fraud-after-service-decline fraud.ndjson#0']);
    expect(second.code).toBe(1);
  });
  it('across two files of a dry run: the decision is not known, which the report says', async () => {
    const { issues, report } = await backfill(
      {
        'order.ndjson': nd(orderRecord('A', { evaluate: true })),
        'fraud.ndjson': nd({ order_id: 'A', fraud_signal_type: 'chargeback' }),
      },
      freshStateDir(),
    );
    expect(issues).toEqual([]);
    expect(report.notes).toContainEqual(
      expect.objectContaining({ code: 'fraud-after-service-decline', count: 1 }),
    );
  });
});

describe('the fraud record rules', () => {
  it('within one file: comment required, comment recommended, field named status', async () => {
    const { issues } = await backfill(
      {
        'order.ndjson': nd(orderRecord('A'), orderRecord('B'), orderRecord('C'), orderRecord('D')),
        'fraud.ndjson': nd(
          { order_id: 'A', fraud_signal_type: 'third_party_antifraud' },
          { order_id: 'B', fraud_signal_type: 'other' },
          { order_id: 'C', status: 'chargeback' },
          { order_id: 'D', fraud_signal_type: 'third_party_antifraud', fraud_comment: 'OtherShield' },
        ),
      },
      freshStateDir(),
    );
    expect(issues).toEqual([
      'fraud-comment-required fraud.ndjson#0',
      'fraud-comment-recommended fraud.ndjson#1',
      'unknown-field fraud.ndjson#2',
      'fraud-field-named-status fraud.ndjson#2',
    ]);
  });
});

describe('duplicate-fraud-mark', () => {
  const orders = { 'order.ndjson': nd(orderRecord('A')) };
  const mark = (type: string) => ({ order_id: 'A', fraud_signal_type: type });
  it('within one file, and not for another signal type', async () => {
    const { issues } = await backfill(
      { ...orders, 'fraud.ndjson': nd(mark('chargeback'), mark('manual_analysis'), mark('chargeback')) },
      freshStateDir(),
    );
    expect(issues).toEqual(['duplicate-fraud-mark fraud.ndjson#2']);
  });
  it('across two files', async () => {
    const { issues } = await backfill(
      { ...orders, 'fraud-1.ndjson': nd(mark('chargeback')), 'fraud-2.ndjson': nd(mark('chargeback')) },
      freshStateDir(),
    );
    expect(issues).toEqual(['duplicate-fraud-mark fraud-2.ndjson#0']);
  });
  it('across two runs, where re-running the same mark is not a repeat', async () => {
    const state = freshStateDir();
    await backfill({ ...orders, 'fraud.ndjson': nd(mark('chargeback')) }, state);
    expect((await backfill({ 'fraud.ndjson': nd(mark('chargeback')) }, state)).issues).toEqual([]);
    expect(
      (await backfill({ 'fraud.ndjson': nd({ ...mark('chargeback'), fraud_comment: 'again' }) }, state))
        .issues,
    ).toEqual(['duplicate-fraud-mark fraud.ndjson#0']);
  });
});

describe('missing-fraud-mark', () => {
  it('across two files: warns about a declined order without a fraud mark', async () => {
    const files = {
      'order.ndjson': nd(orderRecord('A'), orderRecord('B')),
      'status.ndjson': nd({ id: 'A', status: 'declined' }, { id: 'B', status: 'declined' }),
    };
    const { issues, code } = await backfill(
      { ...files, 'fraud.ndjson': nd({ order_id: 'B', fraud_signal_type: 'manual_analysis' }) },
      freshStateDir(),
    );
    expect(issues).toEqual(['missing-fraud-mark status.ndjson#0']);
    expect(code).toBe(0);
  });
  it('across two runs: a fraud mark sent by the first run counts', async () => {
    const state = freshStateDir();
    await backfill(
      {
        'order.ndjson': nd(orderRecord('A'), orderRecord('B')),
        'fraud.ndjson': nd({ order_id: 'B', fraud_signal_type: 'acquirer' }),
      },
      state,
    );
    const second = await backfill(
      { 'status.ndjson': nd({ id: 'A', status: 'declined' }, { id: 'B', status: 'declined' }) },
      state,
    );
    expect(second.issues).toEqual(['missing-fraud-mark status.ndjson#0']);
  });
});

describe('payment rules', () => {
  const created = orderRecord('A', { payments: [{ id: 'P1', acquirer_id: 'ACQ1' }, { id: 'P2' }] });
  const updates = nd(
    { id: 'P9', order_id: 'A', acquirer_id: 'X' },
    { id: 'P1', order_id: 'A', acquirer_id: 'ACQ1' },
    { id: 'P1', order_id: 'A', acquirer_id: 'ACQ2' },
    { id: 'P2', order_id: 'A', acquirer_id: 'ACQ3' },
  );
  const expected = [
    'unknown-payment payment.ndjson#0',
    'payment-update-redundant payment.ndjson#1',
    'payment-acquirer-conflict payment.ndjson#2',
  ];
  it(
    'across two files: unknown payment, redundant update, conflicting acquirer id; a payment created ' +
      'without one passes',
    async () => {
      expect(
        (await backfill({ 'order.ndjson': nd(created), 'payment.ndjson': updates }, freshStateDir())).issues,
      ).toEqual(expected);
    },
  );
  it('across two runs', async () => {
    const state = freshStateDir();
    await backfill({ 'order.ndjson': nd(created) }, state);
    expect((await backfill({ 'payment.ndjson': updates }, state)).issues).toEqual(expected);
  });
});

describe('status-unchanged', () => {
  const orders = { 'order.ndjson': nd(orderRecord('A')) };
  it('within one file', async () => {
    const { issues } = await backfill(
      {
        ...orders,
        'status.ndjson': nd(
          { id: 'A', status: 'pending' },
          { id: 'A', status: 'pending' },
          { id: 'A', status: 'approved' },
        ),
      },
      freshStateDir(),
    );
    expect(issues).toEqual(['status-unchanged status.ndjson#1']);
  });
  it('across two files', async () => {
    const { issues } = await backfill(
      {
        ...orders,
        'status-1.ndjson': nd({ id: 'A', status: 'pending' }),
        'status-2.ndjson': nd({ id: 'A', status: 'pending' }, { id: 'A', status: 'approved' }),
      },
      freshStateDir(),
    );
    expect(issues).toEqual(['status-unchanged status-2.ndjson#0']);
  });
  it('across two runs, where re-running the same updates is not a repeat', async () => {
    const state = freshStateDir();
    const first = nd({ id: 'A', status: 'pending' }, { id: 'A', status: 'approved' });
    await backfill({ ...orders, 'status.ndjson': first }, state);
    expect((await backfill({ 'status.ndjson': first }, state)).issues).toEqual([]);
    expect(
      (
        await backfill(
          { 'status.ndjson': nd({ id: 'A', status: 'approved', status_reason: 'again' }) },
          state,
        )
      ).issues,
    ).toEqual(['status-unchanged status.ndjson#0']);
  });
});

describe('delivery-order-mismatch', () => {
  const orders = nd(
    orderRecord('A', { deliveries: [{ id: 'D1' }] }),
    orderRecord('B', { deliveries: [{ id: 'D2' }] }),
  );
  const updates = nd({ id: 'D2', order_id: 'A' }, { id: 'D1', order_id: 'A' }, { id: 'D3', order_id: 'A' });
  it('across two files', async () => {
    expect(
      (await backfill({ 'order.ndjson': orders, 'delivery.ndjson': updates }, freshStateDir())).issues,
    ).toEqual(['delivery-order-mismatch delivery.ndjson#0']);
  });
  it('across two runs', async () => {
    const state = freshStateDir();
    await backfill({ 'order.ndjson': orders }, state);
    expect((await backfill({ 'delivery.ndjson': updates }, state)).issues).toEqual([
      'delivery-order-mismatch delivery.ndjson#0',
    ]);
  });
});

describe('the state', () => {
  it(
    'is kept per service: a run against a base URL reads its own namespace and writes nothing in a ' +
      'dry run',
    async () => {
      const state = freshStateDir();
      await backfill({ 'order.ndjson': nd(orderRecord('A')) }, state);
      const service = await backfill({ 'status.ndjson': nd({ id: 'A', status: 'approved' }) }, state, [
        '--base-url',
        'https://collect.example.test',
      ]);
      expect(service.notes).toContain('unknown-order');
      const again = await backfill(
        { 'order.ndjson': nd(orderRecord('Z')), 'status.ndjson': nd({ id: 'A', status: 'approved' }) },
        state,
        ['--base-url', 'https://collect.example.test'],
      );
      expect(again.issues).toEqual(['unknown-order status.ndjson#0']);
      const third = await backfill({ 'status.ndjson': nd({ id: 'Z', status: 'approved' }) }, state, [
        '--base-url',
        'https://collect.example.test',
      ]);
      expect(third.notes).toContain('unknown-order');
    },
  );
  it('--no-state checks the run alone', async () => {
    const state = freshStateDir();
    await backfill({ 'order.ndjson': nd(orderRecord('A')) }, state);
    const alone = await backfill({ 'status.ndjson': nd({ id: 'A', status: 'approved' }) }, state, [
      '--no-state',
    ]);
    expect(alone.notes).toContain('unknown-order');
  });
});

describe('duplicate-order without a state (the lean path: ids fingerprinted, repeats read again)', () => {
  it('finds repeated ids across files, an identical repeat as a warning, a changed one as an error', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { runCli } = await import('./helpers/memoryIo.js');
    const dir = tempDir('collect-lean-');
    writeFileSync(join(dir, 'a.ndjson'), nd(orderRecord('A'), orderRecord('B')));
    writeFileSync(
      join(dir, 'b.csv'),
      'id,creation_datetime,total_paid_value,user.id\nA,2024-03-01T10:00:00Z,10,U1\n' +
        'B,2024-03-01T10:00:00Z,99,U1\nC,2024-03-01T10:00:00Z,1,U1\n',
    );
    const { code, stdout } = await runCli([
      'order',
      join(dir, 'a.ndjson'),
      join(dir, 'b.csv'),
      '--dry-run',
      '--no-state',
      '--format',
      'json',
    ]);
    const issues = JSON.parse(stdout).issues.map(
      (i: { severity: string; code: string; file: string; index: number }) =>
        `${i.severity} ${i.code} ${i.file.slice(dir.length + 1)}#${i.index}`,
    );
    expect(issues).toEqual(['warning duplicate-order b.csv#0', 'error duplicate-order b.csv#1']);
    expect(code).toBe(1);
  });
});

describe('re-running a payment update', () => {
  it('is not redundant or conflicting: the state keeps the acquirer id of the creation apart', async () => {
    const state = freshStateDir();
    const files = {
      'order.ndjson': nd(orderRecord('A', { payments: [{ id: 'P1' }] })),
      'payment.ndjson': nd({ id: 'P1', order_id: 'A', acquirer_id: 'ACQ1' }),
    };
    expect((await backfill(files, state)).issues).toEqual([]);
    expect((await backfill(files, state)).issues).toEqual([]);
    expect(
      (await backfill({ 'payment.ndjson': nd({ id: 'P1', order_id: 'A', acquirer_id: 'ACQ2' }) }, state))
        .issues,
    ).toEqual([]);
  });
});
