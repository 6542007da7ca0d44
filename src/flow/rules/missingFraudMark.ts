import type { RuleHit, RuleSkip } from '../timeline.js';
import type { FlowRule } from './rule.js';
import { eventsOf, isKnownOrder } from './rule.js';

export const missingFraudMarkRule: FlowRule = {
  code: 'missing-fraud-mark',
  severity: 'warning',
  spec: '§3 rules 3, 5, 6',
  catches:
    "an order reported declined that the service's evaluation did not reject, with no fraud mark " +
    'in this run or an earlier one',
  fix:
    'when something other than the service declined the order for fraud suspicion, send a fraud mark ' +
    'for it (collect fraud)',
  appliesTo: ['status'],
  needsCreations: true,
  awaitsLaterRecords: true,
  check: (timeline) => {
    const hits: RuleHit[] = [];
    const skips: RuleSkip[] = [];
    const declines = eventsOf(timeline, 'status').filter((event) => event.facts.status === 'declined');
    if (declines.length === 0 || !isKnownOrder(timeline)) return { hits };
    const decision = timeline.prior?.decision ?? null;
    if (decision === 'reject') return { hits };
    const evaluated =
      (timeline.prior?.evaluate ?? false) || eventsOf(timeline, 'order').some((e) => e.facts.evaluate);
    if (evaluated && decision === null) {
      skips.push({
        code: 'missing-fraud-mark',
        reason: 'declined orders whose evaluation decision is not known before sending',
      });
      return { hits, skips };
    }
    const marked = (timeline.prior?.fraudTypes.length ?? 0) > 0 || eventsOf(timeline, 'fraud').length > 0;
    if (marked) return { hits };
    for (const event of declines) {
      hits.push({
        event,
        code: 'missing-fraud-mark',
        path: 'status',
        value: 'declined',
        message: `order "${timeline.orderId}" is declined but no fraud mark was sent for it`,
        hint:
          `if it was declined for fraud suspicion, send one: collect fraud --order-id ` +
          `${timeline.orderId} --type manual_analysis`,
      });
    }
    return { hits, skips };
  },
};
