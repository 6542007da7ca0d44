import { describe, expect, it } from 'vitest';
import { OrderHolds, type HeldCall } from './orderHolds.js';

const call = (orderId: string, isCreation: boolean, line: number): HeldCall => ({
  orderId,
  isCreation,
  location: { file: 'status.csv', index: line - 2, line },
});
const failed = { kind: 'failed', reason: 'HTTP 503 (after 3 attempts)', attempts: 3 } as const;
const rejected = (status: number) =>
  ({ kind: 'rejected', status, text: '', message: 'no', attempts: 1 }) as const;

describe('OrderHolds', () => {
  it('in a file run, holds an order after an update the next run sends again (retries spent, 404), naming it', () => {
    const holds = new OrderHolds(false);
    holds.note(call('A', false, 4), failed);
    holds.note(call('B', false, 5), rejected(404));
    holds.note(call('C', false, 6), rejected(400));
    expect([holds.blocks('A'), holds.blocks('B'), holds.blocks('C')]).toEqual([true, true, false]);
    expect(holds.why('A')).toEqual({
      by: 'earlier-call',
      reason: expect.stringContaining('its update at status.csv:4 failed (HTTP 503 (after 3 attempts))'),
    });
  });

  it('holds an order whose creation was not accepted, and keeps the first reason', () => {
    const holds = new OrderHolds(false);
    holds.note(call('A', true, 2), rejected(422));
    holds.note(call('A', true, 3), { kind: 'accepted', status: 201, text: '', attempts: 1 });
    expect(holds.why('A')).toMatchObject({ by: 'creation', reason: expect.stringContaining('HTTP 422') });
  });

  it(
    'for a caller that re-sends failures itself (the relay): an accepted creation frees, a failed ' +
      'update holds nothing',
    () => {
      const holds = new OrderHolds(true);
      holds.note(call('A', true, 2), rejected(422));
      holds.note(call('A', true, 2), { kind: 'accepted', status: 201, text: '', attempts: 1 });
      holds.note(call('B', false, 3), failed);
      expect([holds.blocks('A'), holds.blocks('B')]).toEqual([false, false]);
    },
  );
});
