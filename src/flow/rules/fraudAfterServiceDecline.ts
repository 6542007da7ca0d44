import type { RuleHit, RuleSkip } from '../timeline.js';
import type { FlowRule } from './rule.js';
import { eventsOf } from './rule.js';

const CODE = 'fraud-after-service-decline';

/** Said before a fraud mark is sent by hand, and once (counted) in a report: in an analyst's words. */
export const decisionUnknown =
  'collect does not know whether the service declined this order itself: no decision for it is in ' +
  'the state (the order was not created through collect, or its decision was not loaded with ' +
  '`collect decisions`). A fraud mark must never be sent for an order the service declined (§1.5): ' +
  "check the order's decision before sending, or load your platform's decisions with `collect " +
  'decisions FILE`';

const decidedInThisRun =
  'the order is created in this same run with an evaluation, so its decision is known only once ' +
  'the service answers; when sending, a mark for an order the service rejects is held back';

export const fraudAfterServiceDeclineRule: FlowRule = {
  code: CODE,
  severity: 'error',
  spec: '§1.5, §3 rule 6',
  catches: "a fraud mark for an order that the service's own evaluation rejected",
  fix: 'do not send it: the service declined the order itself and must not learn from its own decision',
  appliesTo: ['fraud'],
  // It needs the order's decision, not its creation: decisions loaded with `collect decisions` count.
  needsCreations: false,
  // A mark sent for a declined order cannot be taken back: a person sending one by hand is told first.
  warnBeforeSending: true,
  // §1.5 for decisions this very run received: the creation's answer arrives before its fraud marks go.
  beforeSend: (event, decisions) =>
    event.facts.kind === 'fraud' && decisions.get(event.facts.orderId) === 'reject'
      ? {
          event,
          code: CODE,
          path: 'order_id',
          value: event.facts.orderId,
          message:
            `the service's own evaluation rejected order "${event.facts.orderId}" in this run: a ` +
            `fraud mark must not be sent for it (§1.5)`,
          hint: 'do not send it',
        }
      : undefined,
  check: (timeline) => {
    const marks = eventsOf(timeline, 'fraud');
    const hits: RuleHit[] = [];
    const skips: RuleSkip[] = [];
    if (marks.length === 0) return { hits };
    const decision = timeline.prior?.decision ?? null;
    if (decision === null) {
      const created = eventsOf(timeline, 'order');
      // Created without an evaluation (here or through collect before): the service made no decision to learn from.
      const unevaluated =
        created.length > 0
          ? created.every((e) => !e.facts.evaluate)
          : timeline.prior?.created === true && !timeline.prior.evaluate;
      if (created.some((e) => e.facts.evaluate)) skips.push({ code: CODE, reason: decidedInThisRun });
      else if (!unevaluated) skips.push({ code: CODE, reason: decisionUnknown });
      return { hits, skips };
    }
    if (decision !== 'reject') return { hits };
    for (const event of marks) {
      hits.push({
        event,
        code: CODE,
        path: 'order_id',
        value: timeline.orderId,
        message:
          `the service's own evaluation rejected order "${timeline.orderId}": a fraud mark must not ` +
          `be sent for it (§1.5)`,
        hint: 'remove this fraud mark',
      });
    }
    return { hits, skips };
  },
};
