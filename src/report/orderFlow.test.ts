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
      payments: 2,
      withAcquirer: 1,
    });
  });

  it('an update of an order the run and the state never created has no creation', () => {
    const flow = orderFlow(timeline(null, { kind: 'fraud', orderId: 'O1', key: 'O1' }));
    expect(flow).toMatchObject({ created: false, status: false, fraudMarked: true, payments: 0 });
  });
});

describe('packFlow', () => {
  it("gives back the same flow from its number, a lone creation's and one with many payments", () => {
    const flows: OrderFlow[] = [
      { created: true, status: false, declined: false, fraudMarked: false, payments: 1, withAcquirer: 0 },
      { created: true, status: true, declined: true, fraudMarked: true, payments: 3, withAcquirer: 2 },
      { created: false, status: true, declined: false, fraudMarked: true, payments: 0, withAcquirer: 0 },
      {
        created: true,
        status: true,
        declined: false,
        fraudMarked: false,
        payments: 70_000,
        withAcquirer: 69_999,
      },
    ];
    for (const flow of flows) expect(unpackFlow(packFlow(flow))).toEqual(flow);
  });

  it('counts more payments than it can hold as its limit, never fewer with an acquirer id than without', () => {
    const flow = { created: true, status: false, declined: false, fraudMarked: false };
    expect(unpackFlow(packFlow({ ...flow, payments: 2 ** 21, withAcquirer: 2 ** 21 }))).toEqual({
      ...flow,
      payments: 2 ** 20 - 1,
      withAcquirer: 2 ** 20 - 1,
    });
  });
});
