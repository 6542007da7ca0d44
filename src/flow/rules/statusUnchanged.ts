import type { RuleHit } from '../timeline.js';
import type { FlowRule } from './rule.js';
import { eventsOf } from './rule.js';

export const statusUnchangedRule: FlowRule = {
  code: 'status-unchanged',
  severity: 'warning',
  spec: '§3 rule 1',
  catches: "a status update that repeats the order's current status (nothing changed)",
  fix: 'report a status only when it changes',
  appliesTo: ['status'],
  needsCreations: false,
  check: (timeline) => {
    const hits: RuleHit[] = [];
    let current =
      timeline.prior?.lastStatus ??
      eventsOf(timeline, 'order').find((e) => e.facts.status)?.facts.status ??
      null;
    for (const event of eventsOf(timeline, 'status')) {
      // A re-run reads the statuses the state already holds: those are not repeats.
      if (event.facts.status === current && !event.replay) {
        hits.push({
          event,
          code: 'status-unchanged',
          path: 'status',
          value: current,
          message: `order "${timeline.orderId}" already has the status ${current}`,
          hint: 'remove this update, or check that a status change is missing before it',
        });
      }
      current = event.facts.status;
    }
    return { hits };
  },
};
