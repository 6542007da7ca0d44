import { describe, expect, it } from 'vitest';
import { backfill, nd, orderRecord } from '../../test/helpers/history.js';
import { freshStateDir } from '../../test/helpers/memoryIo.js';

/** duplicate-order messages as `severity #index: message`. */
async function duplicates(files: Record<string, string>, state: string) {
  const { report } = await backfill(files, state);
  return (report.issues as { severity: string; index: number; code: string; message?: string }[])
    .filter((issue) => issue.code === 'duplicate-order')
    .map(
      (issue) =>
        `${issue.severity} #${issue.index}: ${issue.message?.replace(/ \(first at .*\/order\.ndjson:/, ' (first at order.ndjson:') ?? ''}`,
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
  it('judges repeats in a CSV large enough to be checked on the parse worker, with a state and without one', async () => {
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
        .map(
          (issue) =>
            `${issue.severity} #${issue.index}: ${(issue as { message?: string }).message?.replace(/ \(first at .*\/order\.csv:/, ' (first at order.csv:') ?? ''}`,
        );
    expect(await read([])).toEqual(expected);
    expect(await read(['--no-state'])).toEqual(expected);
  });
});
