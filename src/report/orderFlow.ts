import type { OrderTimeline, PriorOrder } from '../flow/timeline.js';
import type { Facts } from '../resources/resource.js';

/** What one order's records and the state say of its flow: what the flow coverage counts. */
export interface OrderFlow {
  /** Created in this run or an earlier one. */
  created: boolean;
  /** At least one status: a status change, or a status sent with the creation. */
  status: boolean;
  /** Declined (its last status or any status change), and whether a fraud mark was sent for it. */
  declined: boolean;
  fraudMarked: boolean;
  /** The service's own evaluation rejected it (decision `reject`): a decline that must carry no fraud mark (§1.5). */
  serviceRejected: boolean;
  /**
   * No decision of the service is known for it (evaluated, or created outside collect): whose decline it is
   * cannot be told.
   */
  decisionUnknown: boolean;
  /** Its payments, and how many of them carry an acquirer id (at creation or by a payment update). */
  payments: number;
  withAcquirer: number;
}

interface Payment {
  acquirerId?: string;
}

/** The flow of one order's timeline (records as read, valid or not, and the state's prior knowledge). */
export function orderFlow(timeline: OrderTimeline): OrderFlow {
  return flowOf(timeline.prior, timeline.events);
}

/** The flow of an order's records (their facts) after what the state knew of it. */
export function flowOf(prior: PriorOrder | null, events: readonly { facts: Facts }[]): OrderFlow {
  const acquirers = new Map<string, boolean>(
    Object.entries(prior?.payments ?? {}).map(([id, acquirer]) => [id, acquirer !== null]),
  );
  let created = prior?.created === true;
  let status = prior?.lastStatus != null;
  let declined = prior?.lastStatus === 'declined';
  let fraudMarked = (prior?.fraudTypes.length ?? 0) > 0;
  let evaluated = prior?.evaluate === true;
  for (const { facts } of events) {
    const known = facts as typeof facts & { status?: string; payments?: ({ id: string } & Payment)[] };
    switch (facts.kind) {
      case 'order':
        created = true;
        if ((facts as typeof facts & { evaluate?: boolean }).evaluate === true) evaluated = true;
        for (const payment of known.payments ?? [])
          acquirers.set(payment.id, acquirers.get(payment.id) === true || payment.acquirerId !== undefined);
        break;
      case 'payment': {
        const { paymentId, acquirerId } = facts as typeof facts & { paymentId: string } & Payment;
        if (acquirerId !== undefined) acquirers.set(paymentId, true);
        break;
      }
      case 'fraud':
        fraudMarked = true;
        break;
    }
    if (facts.kind === 'order' || facts.kind === 'status') {
      if (known.status !== undefined) status = true;
      if (known.status === 'declined') declined = true;
    }
  }
  let withAcquirer = 0;
  for (const has of acquirers.values()) if (has) withAcquirer++;
  const decision = prior?.decision ?? null;
  return {
    created,
    status,
    declined,
    fraudMarked,
    serviceRejected: decision === 'reject',
    // As fraud-after-service-decline judges: only an order collect created without an evaluation has no
    // decision to know.
    decisionUnknown: decision === null && (evaluated || !created),
    payments: acquirers.size,
    withAcquirer,
  };
}

/** Payments counted in a packed flow: more are counted as this many (a record is at most 1 MiB). */
const PACKED_PAYMENTS = 2 ** 20 - 1;

/**
 * A flow as one number, so that a worker can hand a lone creation's flow over without an object
 * to copy (the creations-only path reads ids only): created, status, declined, fraud-marked,
 * service-rejected and decision-unknown as bits 0-5, then the payments with an acquirer id and
 * the payments, below 2^20 each (2^46 at most: an exact double).
 */
export function packFlow(flow: OrderFlow): number {
  const bits =
    Number(flow.created) |
    (Number(flow.status) << 1) |
    (Number(flow.declined) << 2) |
    (Number(flow.fraudMarked) << 3) |
    (Number(flow.serviceRejected) << 4) |
    (Number(flow.decisionUnknown) << 5);
  const payments = Math.min(flow.payments, PACKED_PAYMENTS);
  return bits + 64 * (Math.min(flow.withAcquirer, payments) + 2 ** 20 * payments);
}

export function unpackFlow(packed: number): OrderFlow {
  const counts = Math.floor(packed / 64);
  return {
    created: (packed & 1) !== 0,
    status: (packed & 2) !== 0,
    declined: (packed & 4) !== 0,
    fraudMarked: (packed & 8) !== 0,
    serviceRejected: (packed & 16) !== 0,
    decisionUnknown: (packed & 32) !== 0,
    payments: Math.floor(counts / 2 ** 20),
    withAcquirer: counts % 2 ** 20,
  };
}
