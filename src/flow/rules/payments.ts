import type { RuleHit } from '../timeline.js';
import type { OrderTimeline } from '../timeline.js';
import type { FlowRule } from './rule.js';
import { eventsOf, isKnownOrder } from './rule.js';

/** Payment id -> acquirer id sent at creation (null: created without one), from the run and the state. */
function paymentsAtCreation(timeline: OrderTimeline): Map<string, string | null> {
  const payments = new Map<string, string | null>(Object.entries(timeline.prior?.payments ?? {}));
  for (const creation of eventsOf(timeline, 'order')) {
    for (const payment of creation.facts.payments)
      if (!payments.has(payment.id)) payments.set(payment.id, payment.acquirerId ?? null);
  }
  return payments;
}

/** Runs `judge` on each payment update of a known order whose payment exists at creation. */
function eachKnownPayment(
  timeline: OrderTimeline,
  judge: (atCreation: string | null, acquirerId: string | undefined) => Omit<RuleHit, 'event'> | null,
): RuleHit[] {
  if (!isKnownOrder(timeline)) return [];
  const payments = paymentsAtCreation(timeline);
  return eventsOf(timeline, 'payment').flatMap((event) => {
    const atCreation = payments.get(event.facts.paymentId);
    if (atCreation === undefined) return [];
    const hit = judge(atCreation, event.facts.acquirerId);
    return hit ? [{ event, ...hit }] : [];
  });
}

export const unknownPaymentRule: FlowRule = {
  code: 'unknown-payment',
  severity: 'error',
  spec: '§2.6',
  catches: 'a payment update whose id is not a payment of that order at creation',
  fix: 'use the payment id sent in payments[].id when the order was created',
  appliesTo: ['payment'],
  needsCreations: true,
  check: (timeline) => {
    if (!isKnownOrder(timeline)) return { hits: [] };
    const payments = paymentsAtCreation(timeline);
    const known = [...payments.keys()];
    return {
      hits: eventsOf(timeline, 'payment')
        .filter((event) => !payments.has(event.facts.paymentId))
        .map((event) => ({
          event,
          code: 'unknown-payment',
          path: 'id',
          value: event.facts.paymentId,
          message: `payment "${event.facts.paymentId}" is not a payment of order "${timeline.orderId}" at creation`,
          hint:
            known.length > 0
              ? `use one of its payment ids: ${known.slice(0, 5).join(', ')}`
              : 'the order was created without payments: add them to its creation',
        })),
    };
  },
};

export const paymentUpdateRedundantRule: FlowRule = {
  code: 'payment-update-redundant',
  severity: 'warning',
  spec: '§4 note 1',
  catches:
    'a payment update for a payment whose acquirer_id was already sent at creation with the same value',
  fix: 'drop it: PUT /v2/order/payment is only for payments created without acquirer_id',
  appliesTo: ['payment'],
  needsCreations: true,
  check: (timeline) => ({
    hits: eachKnownPayment(timeline, (atCreation, acquirerId) =>
      atCreation !== null && atCreation === acquirerId
        ? {
            code: 'payment-update-redundant',
            path: 'acquirer_id',
            value: acquirerId,
            message: 'this acquirer_id was already sent when the order was created',
            hint: 'remove this payment update',
          }
        : null,
    ),
  }),
};

export const paymentAcquirerConflictRule: FlowRule = {
  code: 'payment-acquirer-conflict',
  severity: 'error',
  spec: '§2.6',
  catches: 'a payment update whose acquirer_id differs from the one sent at creation',
  fix: 'check which acquirer id is right; chargebacks are matched to orders by it',
  appliesTo: ['payment'],
  needsCreations: true,
  check: (timeline) => ({
    hits: eachKnownPayment(timeline, (atCreation, acquirerId) =>
      atCreation !== null && acquirerId !== undefined && atCreation !== acquirerId
        ? {
            code: 'payment-acquirer-conflict',
            path: 'acquirer_id',
            value: acquirerId,
            message: `acquirer_id "${acquirerId}" differs from "${atCreation}", sent when the order was created`,
            hint: 'find out which acquirer id is right; chargebacks are matched to orders by it',
          }
        : null,
    ),
  }),
};
