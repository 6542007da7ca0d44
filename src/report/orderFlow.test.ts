import { describe, expect, it } from 'vitest';
import type { Facts } from '../resources/resource.js';
import type { OrderTimeline, PriorOrder } from '../flow/timeline.js';
import { registry } from '../resources/registry.js';
import { orderFlow, packFlow, unpackFlow, type OrderFlow } from './orderFlow.js';

const event = (facts: Facts & Record<string, unknown>, seq: number) => ({
  facts,
  resource: registry.get(facts.kind)!,
  location: { file: 'f', index: seq, line: seq + 1 },
  seq,
  hash: '',
  schemaValid: true,
  replay: false,
});

const timeline = (
  prior: PriorOrder | null,
  ...facts: (Facts & Record<string, unknown>)[]
): OrderTimeline => ({
  orderId: 'O1',
  prior,
  events: facts.map(event),
});

const order = { kind: 'order', orderId: 'O1', key: 'O1', evaluate: false, claims: [] };

describe('orderFlow', () => {
  it('reads the creation, statuses, fraud marks and payments of a run', () => {
    const flow = orderFlow(
      timeline(
        null,
        { ...order, payments: [{ id: 'P1' }, { id: 'P2', acquirerId: 'A' }] },
        { kind: 'status', orderId: 'O1', key: 'O1', status: 'declined' },
        { kind: 'payment', orderId: 'O1', key: 'P1', paymentId: 'P1', acquirerId: 'B' },
      ),
    );
    expect(flow).toEqual({
      created: true,
      status: true,
      declined: true,
      fraudMarked: false,
      serviceRejected: false,
      decisionUnknown: false,
      payments: 2,
      withAcquirer: 2,
    });
  });

  it('takes what an earlier run did from the state', () => {
    const prior: PriorOrder = {
      created: true,
      hash: '',
      evaluate: false,
      decision: null,
      lastStatus: 'declined',
      payments: { P1: null, P2: 'A' },
      deliveryIds: [],
      fraudTypes: ['chargeback'],
    };
    expect(orderFlow(timeline(prior))).toEqual({
      created: true,
      status: true,
      declined: true,
      fraudMarked: true,
      serviceRejected: false,
      decisionUnknown: false,
      payments: 2,
      withAcquirer: 1,
    });
  });

  it("tells whose decline it is: the service's evaluation, the platform's, or not known (§1.5)", () => {
    const declined = { kind: 'status', orderId: 'O1', key: 'O1', status: 'declined' };
    const prior = (decision: string | null, evaluate = true): PriorOrder => ({
      created: true,
      hash: '',
      evaluate,
      decision,
      lastStatus: null,
      payments: {},
      deliveryIds: [],
      fraudTypes: [],
    });
    const whose = (flow: OrderFlow) => [flow.declined, flow.serviceRejected, flow.decisionUnknown];
    expect(whose(orderFlow(timeline(prior('reject'), declined)))).toEqual([true, true, false]);
    expect(whose(orderFlow(timeline(prior('approve'), declined)))).toEqual([true, false, false]);
    // Evaluated with no decision known yet (a dry run), or created outside collect with none loaded.
    expect(whose(orderFlow(timeline(prior(null), declined)))).toEqual([true, false, true]);
    expect(whose(orderFlow(timeline(null, { ...order, evaluate: true }, declined)))).toEqual([
      true,
      false,
      true,
    ]);
    expect(whose(orderFlow(timeline(null, declined)))).toEqual([true, false, true]);
    // Created without an evaluation: the service made no decision, the decline is the platform's.
    expect(whose(orderFlow(timeline(prior(null, false), declined)))).toEqual([true, false, false]);
    expect(whose(orderFlow(timeline(null, { ...order, payments: [] }, declined)))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('an update of an order the run and the state never created has no creation', () => {
    const flow = orderFlow(timeline(null, { kind: 'fraud', orderId: 'O1', key: 'O1' }));
    expect(flow).toMatchObject({ created: false, status: false, fraudMarked: true, payments: 0 });
  });
});

describe('packFlow', () => {
  it("gives back the same flow from its number, a lone creation's and one with many payments", () => {
    const no = { serviceRejected: false, decisionUnknown: false };
    const flows: OrderFlow[] = [
      {
        created: true,
        status: false,
        declined: false,
        fraudMarked: false,
        ...no,
        payments: 1,
        withAcquirer: 0,
      },
      { created: true, status: true, declined: true, fraudMarked: true, ...no, payments: 3, withAcquirer: 2 },
      {
        created: false,
        status: true,
        declined: false,
        fraudMarked: true,
        ...no,
        payments: 0,
        withAcquirer: 0,
      },
      {
        created: true,
        status: true,
        declined: true,
        fraudMarked: false,
        serviceRejected: true,
        decisionUnknown: false,
        payments: 70_000,
        withAcquirer: 69_999,
      },
      {
        created: true,
        status: true,
        declined: true,
        fraudMarked: false,
        serviceRejected: false,
        decisionUnknown: true,
        payments: 2 ** 20 - 1,
        withAcquirer: 2 ** 20 - 1,
      },
    ];
    for (const flow of flows) expect(unpackFlow(packFlow(flow))).toEqual(flow);
  });

  it('counts more payments than it can hold as its limit, never fewer with an acquirer id than without', () => {
    const flow = {
      created: true,
      status: false,
      declined: false,
      fraudMarked: false,
      serviceRejected: false,
      decisionUnknown: false,
    };
    expect(unpackFlow(packFlow({ ...flow, payments: 2 ** 21, withAcquirer: 2 ** 21 }))).toEqual({
      ...flow,
      payments: 2 ** 20 - 1,
      withAcquirer: 2 ** 20 - 1,
    });
  });
});
