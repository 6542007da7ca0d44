import type { OrderTimeline } from '../flow/timeline.js';

/** What one order's records and the state say of its flow: what the flow coverage counts. */
export interface OrderFlow {
  /** Created in this run or an earlier one. */
  created: boolean;
  /** At least one status: a status change, or a status sent with the creation. */
  status: boolean;
  /** Declined (its last status or any status change), and whether a fraud mark was sent for it. */
  declined: boolean;
  fraudMarked: boolean;
  /** Its payments, and how many of them carry an acquirer id (at creation or by a payment update). */
  payments: number;
  withAcquirer: number;
}

interface Payment {
  acquirerId?: string;
}

/** The flow of one order's timeline (records as read, valid or not, and the state's prior knowledge). */
export function orderFlow(timeline: OrderTimeline): OrderFlow {
  const { prior } = timeline;
  const acquirers = new Map<string, boolean>(
    Object.entries(prior?.payments ?? {}).map(([id, acquirer]) => [id, acquirer !== null]),
  );
  let created = prior?.created === true;
  let status = prior?.lastStatus != null;
  let declined = prior?.lastStatus === 'declined';
  let fraudMarked = (prior?.fraudTypes.length ?? 0) > 0;
  for (const { facts } of timeline.events) {
    const known = facts as typeof facts & { status?: string; payments?: ({ id: string } & Payment)[] };
    switch (facts.kind) {
      case 'order':
        created = true;
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
  return { created, status, declined, fraudMarked, payments: acquirers.size, withAcquirer };
}
