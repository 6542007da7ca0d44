import { describe, expect, it } from 'vitest';
import { InsightsBuilder, MAX_BUCKETS } from './insights.js';

const read = (endpoint: string, coverage: number, index: number | null = 0) => ({
  kind: 'read' as const,
  endpoint,
  location: { file: 'f', index, line: 1 },
  issues: [],
  coverage,
});

describe('InsightsBuilder', () => {
  it('counts the records of each endpoint that carry each field, not a file-level problem', () => {
    const insights = new InsightsBuilder(() => 0);
    insights.apply(read('order', 0b101));
    insights.apply(read('order', 0b001));
    insights.apply(read('order', 0b001, null));
    insights.apply(read('payment', 0b1));
    const [order, payment] = insights.build().coverage;
    expect(order!.records).toBe(2);
    expect(order!.fields.slice(0, 3).map((f) => f.count)).toEqual([2, 0, 1]);
    expect(payment).toMatchObject({
      endpoint: 'payment',
      records: 1,
      fields: [{ path: 'acquirer_id', count: 1 }],
    });
  });

  it('counts an endpoint it has no field list for without fields', () => {
    const insights = new InsightsBuilder(() => 0);
    insights.apply(read('refund', 0));
    expect(insights.build().coverage).toEqual([{ endpoint: 'refund', records: 1, fields: [] }]);
  });

  it('counts answers per minute, then in wider buckets, never more than MAX_BUCKETS', () => {
    let now = Date.UTC(2026, 0, 1, 10, 0, 30);
    const insights = new InsightsBuilder(() => now);
    insights.answered(200, 'approve');
    now += 60_000;
    insights.answered(400);
    insights.answered(503);
    insights.answered(null);
    let timeline = insights.build().timeline!;
    expect(timeline.start).toBe(Date.UTC(2026, 0, 1, 10, 0));
    expect(timeline.minutes).toBe(1);
    expect(timeline.buckets).toEqual([
      { accepted: 1, rejected: 0, unanswered: 0, retried: 0 },
      { accepted: 0, rejected: 1, unanswered: 2, retried: 0 },
    ]);
    now += 10 * 60 * 60_000; // ten hours later: 600 minutes do not fit in MAX_BUCKETS
    insights.answered(201);
    timeline = insights.build().timeline!;
    expect(timeline.minutes).toBe(8);
    expect(timeline.buckets.length).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(timeline.buckets[0]).toEqual({ accepted: 1, rejected: 1, unanswered: 2, retried: 0 });
    expect(timeline.buckets.reduce((sum, b) => sum + b.accepted + b.rejected + b.unanswered, 0)).toBe(5);
    expect(insights.build().faults).toEqual({ '5xx': 1, 'no answer': 1 });
    expect(insights.build().decisions).toEqual({ approve: 1 });
  });

  it("counts a run's requests by their result; records never requested are not on the timeline", () => {
    const insights = new InsightsBuilder(() => 0);
    const location = { file: 'f', index: 0, line: 1 };
    const issue = { severity: 'error' as const, code: 'x', path: '', message: 'x' };
    insights.apply({
      kind: 'sent',
      endpoint: 'order',
      location,
      result: { kind: 'accepted' },
      requested: true,
    });
    insights.apply({
      kind: 'sent',
      endpoint: 'order',
      location,
      result: { kind: 'rejected', issue },
      requested: true,
    });
    insights.apply({
      kind: 'sent',
      endpoint: 'order',
      location,
      result: { kind: 'failed', issue },
      requested: true,
    });
    insights.apply({
      kind: 'sent',
      endpoint: 'order',
      location,
      result: { kind: 'failed', issue },
      requested: false,
    });
    expect(insights.build().timeline!.buckets).toEqual([
      { accepted: 1, rejected: 1, unanswered: 1, retried: 0 },
    ]);
  });

  it('counts orders by their flow', () => {
    const insights = new InsightsBuilder(() => 0);
    const flow = {
      created: true,
      status: true,
      declined: true,
      fraudMarked: true,
      serviceRejected: false,
      decisionUnknown: false,
      payments: 2,
      withAcquirer: 1,
    };
    insights.apply({ kind: 'order', flow });
    insights.apply({
      kind: 'order',
      flow: { ...flow, created: false, status: false, fraudMarked: false, payments: 1 },
    });
    insights.apply({ kind: 'order', flow: { ...flow, declined: false, withAcquirer: 0 } });
    expect(insights.build().flow).toEqual({
      orders: 3,
      created: 2,
      withStatus: 2,
      declined: 2,
      platformDeclined: 2,
      platformDeclinedMarked: 1,
      serviceDeclined: 0,
      undecidedDeclined: 0,
      payments: 5,
      paymentsWithAcquirer: 2,
    });
  });

  it(
    "counts declined orders with a mark against the platform's declines; the service's and the " +
      'undecided apart (§1.5)',
    () => {
      const insights = new InsightsBuilder(() => 0);
      const declined = {
        created: true,
        status: true,
        declined: true,
        fraudMarked: false,
        serviceRejected: false,
        decisionUnknown: false,
        payments: 0,
        withAcquirer: 0,
      };
      // A clean history: the platform's decline carries its mark, the service's two carry none (as they must).
      insights.order({ ...declined, fraudMarked: true });
      insights.order({ ...declined, serviceRejected: true });
      insights.order({ ...declined, serviceRejected: true });
      insights.order({ ...declined, decisionUnknown: true });
      expect(insights.build().flow).toMatchObject({
        declined: 4,
        platformDeclined: 1,
        platformDeclinedMarked: 1,
        serviceDeclined: 2,
        undecidedDeclined: 1,
      });
    },
  );
});

describe('retries on the timeline', () => {
  it(
    'puts the retries the sender made since the last answer in the current bucket; the final total ' +
      'settles the rest',
    () => {
      let now = 0;
      const insights = new InsightsBuilder(() => now);
      insights.retriedSoFar(2);
      now += 60_000;
      insights.retriedSoFar(2);
      insights.retriedSoFar(5);
      insights.apply({ kind: 'retried', count: 6 });
      expect(insights.build().timeline!.buckets.map((b) => b.retried)).toEqual([2, 4]);
    },
  );

  it('counts an order once when its flow replaces the one counted before for it (a creation read again)', () => {
    const insights = new InsightsBuilder(() => 0);
    const lone = {
      created: true,
      status: false,
      declined: false,
      fraudMarked: false,
      serviceRejected: false,
      decisionUnknown: false,
      payments: 1,
      withAcquirer: 0,
    };
    insights.order(lone);
    insights.order({ ...lone, payments: 0 });
    insights.order({ ...lone, status: true, declined: true, payments: 2, withAcquirer: 1 }, lone);
    expect(insights.build().flow).toEqual({
      orders: 2,
      created: 2,
      withStatus: 1,
      declined: 1,
      platformDeclined: 1,
      platformDeclinedMarked: 0,
      serviceDeclined: 0,
      undecidedDeclined: 0,
      payments: 2,
      paymentsWithAcquirer: 1,
    });
  });
});
