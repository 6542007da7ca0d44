import { describe, expect, it } from 'vitest';
import { flowRules } from '../flow/rules/index.js';
import { registry } from '../resources/registry.js';
import { SqliteState } from '../state/sqlite/sqliteState.js';
import { judgeEvent, orderOf } from './judgeEvent.js';
import type { OutboxEvent } from './outboxSource.js';

const now = new Date('2024-03-02T00:00:00Z');
const order = (id: string) => ({
  id,
  creation_datetime: '2024-03-01T10:00:00Z',
  total_paid_value: 10,
  user: { id: 'U1' },
});
const event = (id: number, endpoint: unknown, body: unknown): OutboxEvent => ({
  id,
  endpoint,
  body,
  text: JSON.stringify(body),
  createdAt: null,
});

function judge(state: SqliteState, outbox: OutboxEvent) {
  return judgeEvent(outbox, 'collect_outbox', registry, state, flowRules, now);
}

/** What the relay does after an accepted event: the state remembers it. */
function accepted(state: SqliteState, outbox: OutboxEvent) {
  const judged = judge(state, outbox);
  if (judged.kind !== 'send') throw new Error(judged.kind);
  state.remember([{ ...judged, outcome: 'accepted' }], now);
  state.recount();
}

describe('judgeEvent', () => {
  it('names the order of an event from its endpoint’s field, or none', () => {
    expect(orderOf('status', { id: 'A' }, registry)?.orderId).toBe('A');
    expect(orderOf('fraud', { order_id: 'B' }, registry)?.orderId).toBe('B');
    expect(orderOf('nope', { id: 'A' }, registry)).toBeUndefined();
    expect(orderOf('status', [], registry)).toBeUndefined();
  });

  it('refuses an unknown endpoint and a body failing its schema, with the issue codes', () => {
    const state = SqliteState.open(null);
    const unknown = judge(state, event(1, 'orders', order('A')));
    expect(unknown).toMatchObject({
      kind: 'invalid',
      issues: [{ code: 'unknown-endpoint', path: 'endpoint' }],
    });
    const bad = judge(state, event(2, 'status', { id: 'A', status: 'bogus' }));
    expect(bad.kind).toBe('invalid');
  });

  it('applies the flow rules against the state: an update of an order it never saw is unknown-order', () => {
    const state = SqliteState.open(null);
    accepted(state, event(1, 'order', order('A')));
    expect(judge(state, event(2, 'status', { id: 'A', status: 'approved' })).kind).toBe('send');
    const unknown = judge(state, event(3, 'status', { id: 'Z', status: 'approved' }));
    expect(unknown.kind === 'invalid' && unknown.issues.map((issue) => issue.code)).toEqual([
      'unknown-order',
    ]);
  });

  it('takes a creation the state already has, unchanged, as a repeat (a resend after kill -9): not sent again', () => {
    const state = SqliteState.open(null);
    accepted(state, event(1, 'order', order('A')));
    expect(judge(state, event(1, 'order', order('A'))).kind).toBe('repeat');
    const changed = judge(state, event(2, 'order', { ...order('A'), total_paid_value: 11 }));
    expect(changed.kind === 'invalid' && changed.issues.map((issue) => issue.code)).toEqual([
      'duplicate-order',
    ]);
  });
});
