import type { StateWrites } from '../resources/resource.js';
import type { FlowEvent, OrderTimeline, PriorOrder } from '../flow/timeline.js';

const empty = (): PriorOrder => ({
  created: false,
  hash: '',
  evaluate: false,
  decision: null,
  lastStatus: null,
  payments: {},
  deliveryIds: [],
  fraudTypes: [],
});

/**
 * An order's timeline folded into what a state keeps of an earlier run (the PriorOrder the flow
 * rules already take): its events' facts, written by each endpoint's own `remember`, and the
 * decision the session learned. Later calls for the order are judged against it as a file run
 * judges records against its state; the events themselves (and their locations) are let go.
 */
export function foldTimeline(timeline: OrderTimeline): PriorOrder {
  const prior: PriorOrder = timeline.prior
    ? {
        ...timeline.prior,
        payments: { ...timeline.prior.payments },
        deliveryIds: [...timeline.prior.deliveryIds],
        fraudTypes: [...timeline.prior.fraudTypes],
      }
    : empty();
  const writes: StateWrites = {
    createOrder: (order) => {
      prior.created = true;
      prior.hash = order.hash;
      prior.evaluate = order.evaluate;
      if (order.status !== null) prior.lastStatus = order.status;
    },
    setDecision: (_orderId, decision) => (prior.decision = decision),
    addPayment: (_orderId, paymentId, acquirerId) => (prior.payments[paymentId] ??= acquirerId),
    // The rules compare updates with the acquirer sent at creation: a later update does not change that.
    setUpdatedAcquirer: () => {},
    setLastStatus: (_orderId, status) => (prior.lastStatus = status),
    addFraudMark: (_orderId, signalType) => prior.fraudTypes.push(signalType),
    addDelivery: (_orderId, deliveryId) => {
      if (!prior.deliveryIds.includes(deliveryId)) prior.deliveryIds.push(deliveryId);
    },
    addRow: (table, _orderId, values) => {
      ((prior.rows ??= {})[table.name] ??= []).push(
        Object.fromEntries(table.columns.map((column, i) => [column, values[i] ?? null])),
      );
    },
  };
  for (const event of timeline.events) event.resource.remember(event.facts as never, writes, event.hash);
  return prior;
}

/**
 * Estimated bytes held for one event (its facts, location and hash, with V8's overhead): an estimate,
 * measured against bench/sandbox-memory.js.
 */
export const eventBytes = (event: FlowEvent): number =>
  400 + 2 * (event.location.file.length + JSON.stringify(event.facts).length);

/** Estimated bytes held for an order's summary. */
export const summaryBytes = (orderId: string, prior: PriorOrder | null): number =>
  200 + 2 * orderId.length + (prior ? 2 * JSON.stringify(prior).length : 0);
