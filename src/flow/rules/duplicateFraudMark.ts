import type { RuleHit } from '../timeline.js';
import type { FlowRule } from './rule.js';
import { eventsOf, where } from './rule.js';

export const duplicateFraudMarkRule: FlowRule = {
  code: 'duplicate-fraud-mark',
  severity: 'warning',
  spec: '§1.4',
  catches: 'the same order marked fraudulent twice with the same signal type',
  fix: 'send each fraud signal of an order once',
  appliesTo: ['fraud'],
  needsCreations: false,
  check: (timeline) => {
    const hits: RuleHit[] = [];
    const seen = new Map<string, string>();
    for (const type of timeline.prior?.fraudTypes ?? []) seen.set(type, 'an earlier run');
    for (const event of eventsOf(timeline, 'fraud')) {
      const type = event.facts.signalType;
      if (type === undefined) continue;
      const earlier = seen.get(type);
      // A re-run reads the very mark the state holds: only repeats within this run count then.
      if (earlier !== undefined && !(event.replay && earlier === 'an earlier run')) {
        hits.push({
          event,
          code: 'duplicate-fraud-mark',
          path: 'fraud_signal_type',
          value: type,
          message: `order "${timeline.orderId}" is already marked fraudulent as ${type} (at ${earlier})`,
          hint: 'remove the repeated fraud mark',
        });
      }
      if (earlier === undefined || earlier === 'an earlier run') seen.set(type, where(event));
    }
    return { hits };
  },
};
