import type { RecordLocation } from '../core/issue.js';
import type { HoldCause, Outcome } from './outcome.js';

/** Why a call was not accepted, for the calls of its order that are held. */
function callFailure(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'rejected':
      return `was rejected (HTTP ${outcome.status}: ${outcome.message})`;
    case 'failed':
      return `failed (${outcome.reason})`;
    case 'vetoed':
      return `was not sent (${outcome.code})`;
    default:
      return 'was not sent';
  }
}

/** An update a re-run sends again: its retries ran out, or the service did not know its order yet (404). */
const sentAgainLater = (outcome: Outcome) =>
  outcome.kind === 'failed' || (outcome.kind === 'rejected' && outcome.status === 404);

/** What of a call decides whether its order's later calls are held. */
export interface HeldCall {
  orderId: string;
  isCreation: boolean;
  location: RecordLocation;
}

/**
 * The orders whose later calls are held, and why: a creation that was not accepted, or, in a file
 * run, an update the next run sends again (so that it reaches the service before them). A caller
 * that sends a failed call again itself, before its order's next one (the relay), `requeuesFailures`:
 * an accepted creation frees its order, and a failed update holds nothing.
 */
export class OrderHolds {
  private readonly held = new Map<string, { reason: string; by: HoldCause }>();

  constructor(private readonly requeuesFailures: boolean) {}

  /** The order's later calls are held. */
  blocks(orderId: string): boolean {
    return this.held.has(orderId);
  }

  /** Notes what this call's outcome means for its order's later calls. */
  note(call: HeldCall, outcome: Outcome): void {
    const where = `${call.location.file}:${call.location.line ?? '?'}`;
    if (call.isCreation) {
      if (outcome.kind !== 'accepted')
        this.held.set(call.orderId, {
          reason: `its creation at ${where} ${callFailure(outcome)}`,
          by: 'creation',
        });
      else if (this.requeuesFailures) this.held.delete(call.orderId);
    } else if (!this.requeuesFailures && sentAgainLater(outcome) && !this.held.has(call.orderId)) {
      this.held.set(call.orderId, {
        reason: `its update at ${where} ${callFailure(outcome)}`,
        by: 'earlier-call',
      });
    }
  }

  /** Why a call of the order is held, as its `blocked` outcome says it. */
  why(orderId: string): { reason: string; by: HoldCause } {
    const hold = this.held.get(orderId);
    if (hold?.by === 'earlier-call')
      return {
        reason:
          `held: ${hold.reason}, and order "${orderId}"'s later calls wait for it, so they reach the ` +
          `service in flow order`,
        by: 'earlier-call',
      };
    return {
      reason: `held: order "${orderId}" is not at the service: ${hold?.reason ?? 'its creation was not accepted'}`,
      by: 'creation',
    };
  }

  /** Holds every later call of an order: its creation will not be accepted (an earlier run's rejection, unchanged). */
  hold(orderId: string, why: string): void {
    this.held.set(orderId, { reason: why, by: 'creation' });
  }
}
