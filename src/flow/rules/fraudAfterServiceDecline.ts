import type { RuleHit, RuleSkip } from '../timeline.js';
import type { FlowRule } from './rule.js';
import { eventsOf } from './rule.js';

export const fraudAfterServiceDeclineRule: FlowRule = {
  code: 'fraud-after-service-decline',
  severity: 'error',
  spec: '§1.5, §3 rule 6',
  catches: "a fraud mark for an order that the service's own evaluation rejected",
  fix: 'do not send it: the service declined the order itself and must not learn from its own decision',
  appliesTo: ['fraud'],
  needsCreations: true,
  // §1.5 for decisions this very run received: the creation's answer arrives before its fraud marks go.
  beforeSend: (event, decisions) => (event.facts.kind === 'fraud' && decisions.get(event.facts.orderId) === 'reject' ? {
    event,
    code: 'fraud-after-service-decline',
    path: 'order_id',
    value: event.facts.orderId,
    message: `the service's own evaluation rejected order "${event.facts.orderId}" in this run: a fraud mark must not be sent for it (§1.5)`,
    hint: 'do not send it',
  } : undefined),
  check: (timeline) => {
    const marks = eventsOf(timeline, 'fraud');
    const hits: RuleHit[] = [];
    const skips: RuleSkip[] = [];
    if (marks.length === 0) return { hits };
    const decision = timeline.prior?.decision ?? null;
    const evaluated = (timeline.prior?.evaluate ?? false) || eventsOf(timeline, 'order').some((e) => e.facts.evaluate);
    if (decision === null && evaluated) {
      skips.push({ code: 'fraud-after-service-decline', reason: 'fraud marks for orders whose evaluation decision is not known before sending (when sending, a mark for an order the service rejects in this run is still held back)' });
    }
    if (decision !== 'reject') return { hits, skips };
    for (const event of marks) {
      hits.push({
        event,
        code: 'fraud-after-service-decline',
        path: 'order_id',
        value: timeline.orderId,
        message: `the service's own evaluation rejected order "${timeline.orderId}": a fraud mark must not be sent for it (§1.5)`,
        hint: 'remove this fraud mark',
      });
    }
    return { hits, skips };
  },
};
