import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backfill, nd, orderRecord } from '../../test/helpers/history.js';
import { freshStateDir, runCli } from '../../test/helpers/memoryIo.js';
import { tempDir } from '../../test/helpers/tempDir.js';

/** duplicate-order messages as `severity #index: message`. */
async function duplicates(files: Record<string, string>, state: string) {
  const { report } = await backfill(files, state);
  return (report.issues as { severity: string; index: number; code: string; message?: string }[])
    .filter((issue) => issue.code === 'duplicate-order')
    .map(
      (issue) =>
        `${issue.severity} #${issue.index}: ` +
        `${issue.message?.replace(/ \(first at .*\/order\.ndjson:/, ' (first at order.ndjson:') ?? ''}`,
    );
}

describe('a run of creations alone (judged as read, repeats held for pass 2)', () => {
  it('names the first creation in this run, not an earlier run, though it was remembered before pass 2', async () => {
    const state = freshStateDir();
    await backfill({ 'order.ndjson': nd(orderRecord('Z')) }, state);
    // More creations than one batch of the state's writes: A is in the state before pass 2 judges its repeats.
    const many = Array.from({ length: 6000 }, (_, n) => orderRecord(`B${n}`));
    const orders = nd(
      orderRecord('A'),
      ...many,
      orderRecord('A', { total_paid_value: 11 }),
      orderRecord('A'),
    );
    expect(await duplicates({ 'order.ndjson': orders }, state)).toEqual([
      'error #6001: order "A" is created again with a different body (first at order.ndjson:1)',
      'warning #6002: order "A" is created again with the same body (first at order.ndjson:1); it is sent once',
    ]);
    // The same file again: its first creation is the earlier run's, read again; the repeats are judged against it.
    expect(await duplicates({ 'order.ndjson': orders }, state)).toEqual([
      'error #6001: order "A" is created again with a different body (first at an earlier run)',
      'warning #6002: order "A" is created again with the same body (first at an earlier run); it is sent once',
    ]);
  });
  it('remembers what it validated for the next run, and not an invalid repeat', async () => {
    const state = freshStateDir();
    await backfill(
      { 'order.ndjson': nd(orderRecord('A'), orderRecord('A', { total_paid_value: 11 })) },
      state,
    );
    expect(
      (await backfill({ 'order.ndjson': nd(orderRecord('A', { total_paid_value: 11 })) }, state)).issues,
    ).toEqual(['duplicate-order order.ndjson#0']);
    expect((await backfill({ 'order.ndjson': nd(orderRecord('A')) }, state)).issues).toEqual([]);
  });
  it(
    'judges repeats in a CSV large enough to be checked on the parse worker, with a state and ' +
      'without one',
    async () => {
      const header = 'id,creation_datetime,total_paid_value,user.id';
      const rows = Array.from({ length: 4000 }, (_, n) => `B${n},2024-03-01T10:00:00Z,10,U${n}`);
      // A twice with the same body, C twice with different bodies, far apart in the file.
      const csv = [
        header,
        'A,2024-03-01T10:00:00Z,10,U',
        'C,2024-03-01T10:00:00Z,10,U',
        ...rows,
        'A,2024-03-01T10:00:00Z,10,U',
        'C,2024-03-01T10:00:00Z,12,U',
        '',
      ].join('\n');
      expect(csv.length).toBeGreaterThan(128 * 1024);
      const expected = [
        'warning #4002: order "A" is created again with the same body (first at order.csv:2); it is sent once',
        'error #4003: order "C" is created again with a different body (first at order.csv:3)',
      ];
      const read = async (extra: string[]) =>
        (await backfill({ 'order.csv': csv }, freshStateDir(), extra)).report.issues
          .filter((issue) => issue.code === 'duplicate-order')
          .map((issue) => {
            const message = (issue as { message?: string }).message;
            const shortened = message?.replace(/ \(first at .*\/order\.csv:/, ' (first at order.csv:');
            return `${issue.severity} #${issue.index}: ${shortened ?? ''}`;
          });
      expect(await read([])).toEqual(expected);
      expect(await read(['--no-state'])).toEqual(expected);
    },
  );
});

/**
 * The flow coverage bars of the HTML page of `collect backfill DIR --dry-run` over these files, as `label:
 * part of whole`.
 */
async function flowCoverage(files: Record<string, string>, extra: string[]): Promise<string[]> {
  const dir = tempDir('collect-flow-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const { stdout } = await runCli(['backfill', dir, '--dry-run', '--format', 'html', ...extra]);
  const section = /<section id="flow">.*?<\/section>/s.exec(stdout)?.[0] ?? '';
  return [...section.matchAll(/<title>([^<]*)<\/title>/g)].map((match) => match[1]!);
}

describe('the flow coverage of a run of creations alone', () => {
  const payment = (id: string, extra: object = {}) => ({ id, method: 'pix', value: 10, ...extra });
  // A repeated with another payment, C invalid (still an order with a creation), D without an id (no order).
  const orders = nd(
    orderRecord('A', { status: 'approved', payments: [payment('P1', { acquirer_id: 'X' })] }),
    orderRecord('B', { payments: [payment('P2')] }),
    orderRecord('C', { total_paid_value: 'ten' }),
    orderRecord('A', { status: 'approved', payments: [payment('P1'), payment('P3')] }),
    { creation_datetime: '2024-03-01T10:00:00Z' },
  );
  const expected = [
    'orders with a creation: 3 of 3',
    'orders with at least one status: 1 of 3',
    'platform declines with fraud mark: 0 of 0',
    'payments with an acquirer id: 1 of 3',
  ];

  it('counts every order once, its creations read again included, with a state and without one', async () => {
    expect(await flowCoverage({ 'order.ndjson': orders }, ['--state', freshStateDir()])).toEqual(expected);
    expect(await flowCoverage({ 'order.ndjson': orders }, ['--no-state'])).toEqual(expected);
  });

  it('counts the orders of a CSV checked on the parse worker, where a run without a state reads ids only', async () => {
    const header =
      'id,creation_datetime,total_paid_value,user.id,status,payments.0.id,payments.0.acquirer_id';
    // Every third order declined, every other payment with an acquirer id; A created again far from its first row.
    const rows = Array.from(
      { length: 4000 },
      (_, n) =>
        `B${n},2024-03-01T10:00:00Z,10,U${n},${n % 3 === 0 ? 'declined' : ''},P${n},${n % 2 === 0 ? 'X' : ''}`,
    );
    const csv = [
      header,
      'A,2024-03-01T10:00:00Z,10,U,,PA,',
      ...rows,
      'A,2024-03-01T10:00:00Z,10,U,approved,PA,X',
      '',
    ].join('\n');
    expect(csv.length).toBeGreaterThan(128 * 1024);
    const want = [
      'orders with a creation: 4,001 of 4,001',
      'orders with at least one status: 1,335 of 4,001',
      'platform declines with fraud mark: 0 of 1,334',
      'payments with an acquirer id: 2,001 of 4,001',
    ];
    expect(await flowCoverage({ 'order.csv': csv }, ['--no-state'])).toEqual(want);
    expect(await flowCoverage({ 'order.csv': csv }, ['--state', freshStateDir()])).toEqual(want);
  });

  it('takes the statuses and fraud marks an earlier run recorded from the state', async () => {
    const state = freshStateDir();
    await backfill(
      {
        'order.ndjson': nd(orderRecord('A')),
        'status.ndjson': nd({ id: 'A', status: 'declined' }),
        'fraud.ndjson': nd({ order_id: 'A', fraud_signal_type: 'manual_analysis' }),
      },
      state,
    );
    expect(
      await flowCoverage({ 'order.ndjson': nd(orderRecord('A'), orderRecord('B')) }, ['--state', state]),
    ).toEqual([
      'orders with a creation: 2 of 2',
      'orders with at least one status: 1 of 2',
      'platform declines with fraud mark: 1 of 1',
      'payments with an acquirer id: 0 of 0',
    ]);
  });
});
