import type { RuleHit } from '../timeline.js';
import type { FlowRule } from './rule.js';
import { eventsOf, where } from './rule.js';

const EARLIER_RUN = 'an earlier run';

export const duplicateOrderRule: FlowRule = {
  code: 'duplicate-order',
  severity: 'error',
  spec: '§2.1',
  catches:
    'the same order id created twice with different bodies; an identical repeat is a warning and is sent once',
  fix: 'keep one creation per order id; later changes go through the update endpoints (status, payment, delivery)',
  appliesTo: ['order'],
  needsCreations: false,
  // It compares a creation with the order's first (the state's or the run's): the first is never faulted.
  faultsCreations: 'repeats',
  check: (timeline) => {
    const hits: RuleHit[] = [];
    let first = timeline.prior?.created ? { hash: timeline.prior.hash, at: EARLIER_RUN } : null;
    let rerun = false;
    for (const event of eventsOf(timeline, 'order')) {
      if (!first) {
        first = { hash: event.hash, at: where(event) };
        continue;
      }
      const same = event.hash === first.hash;
      if (same && first.at === EARLIER_RUN && !rerun) {
        rerun = true; // the creation an earlier run recorded, read again: a re-run, not a repeat
        continue;
      }
      hits.push({
        event,
        code: 'duplicate-order',
        severity: same ? 'warning' : 'error',
        path: 'id',
        value: timeline.orderId,
        message: same
          ? `order "${timeline.orderId}" is created again with the same body (first at ${first.at}); it is sent once`
          : `order "${timeline.orderId}" is created again with a different body (first at ${first.at})`,
        hint: same
          ? 'remove the repeated creation'
          : 'keep one creation per order; report later changes through the update endpoints',
        ...(same ? { repeat: true as const } : {}),
      });
    }
    return { hits };
  },
};
