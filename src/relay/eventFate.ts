import type { Issue } from '../core/issue.js';
import type { Outcome } from '../send/sender.js';
import type { Judgement } from './judgeEvent.js';
import type { DeadReason, OutboxEvent, Settlement } from './outboxSource.js';

/** Why an event is dead-lettered: its first error (or issue), with every issue kept. */
export function reasonOf(issues: readonly Issue[]): DeadReason {
  const first = issues.find((issue) => issue.severity === 'error') ?? issues[0];
  return {
    code: first?.code ?? 'invalid',
    message: `${first?.path ? `${first.path}: ` : ''}${first?.message ?? 'invalid'}`,
    issues: [...issues],
  };
}

/** How many times an update of an order no one has created yet is put back before it is dead-lettered (1 + 2 + 4 s). */
export const CREATION_WAITS = 3;

export const CREATION_NOT_IN =
  "its order's creation is not in yet (a creation committed after this event shows up late)";

/**
 * An update whose only error is that its order is unknown, put back fewer than CREATION_WAITS times:
 * it waits a little, since its creation may commit after it (two transactions of the application).
 */
export const awaitsCreation = (issues: readonly Issue[], waits: number): boolean =>
  waits < CREATION_WAITS &&
  issues.some((issue) => issue.code === 'unknown-order') &&
  issues.every((issue) => issue.severity !== 'error' || issue.code === 'unknown-order');

/** An update of an order whose creation is dead-lettered: it waits, and `relay retry` re-queues both. */
export const heldFate = (orderId: string, file: string, creationId: number): Settlement => ({
  state: 'held',
  reason: {
    code: 'order-held',
    message:
      `held: the creation of order "${orderId}" (${file} id ${creationId}) is dead-lettered; fix it, ` +
      `then collect relay retry --id ${creationId} re-queues it with this event`,
  },
});

/** The fate of an event judged not to be sent: dead-lettered (invalid) or settled as sent (an identical repeat). */
export function unsentFate(judged: Exclude<Judgement, { kind: 'send' }>): Settlement {
  return judged.kind === 'invalid'
    ? { state: 'dead', reason: reasonOf(judged.issues) }
    : { state: 'sent', note: 'the service already has this record (an identical repeat): not sent again' };
}

/** The fate of a sent event from the service's answer; undefined when it failed for a passing reason (deferred). */
export function answeredFate(outcome: Outcome): { settlement: Settlement; status?: number } | undefined {
  switch (outcome.kind) {
    case 'accepted':
      return { settlement: { state: 'sent' }, status: outcome.status };
    case 'rejected':
      return {
        settlement: {
          state: 'dead',
          reason: { code: 'rejected-by-service', status: outcome.status, message: outcome.message },
        },
        status: outcome.status,
      };
    case 'vetoed':
      return { settlement: { state: 'dead', reason: { code: outcome.code, message: outcome.message } } };
    default:
      return undefined;
  }
}

/** The word the log and the metrics use for a settlement. */
export function fateName(settlement: Settlement): 'sent' | 'repeat' | 'rejected' | 'dead' | 'held' {
  if (settlement.state === 'sent') return settlement.note ? 'repeat' : 'sent';
  if (settlement.state === 'dead' && settlement.reason.code === 'rejected-by-service') return 'rejected';
  return settlement.state;
}

export const endpointOf = (event: OutboxEvent): string | undefined =>
  typeof event.endpoint === 'string' ? event.endpoint : undefined;
