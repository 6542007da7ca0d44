import type { FlowRule } from './rule.js';
import { isKnownOrder } from './rule.js';

export const unknownOrderRule: FlowRule = {
  code: 'unknown-order',
  severity: 'error',
  spec: '§2.1, §2.3, §2.6',
  catches:
    'a status update, fraud mark, payment update or delivery whose order id was never created, in this run or an earlier one',
  fix: 'send the order creation first (collect order, or --order in a backfill), or correct the order id',
  appliesTo: 'updates',
  needsCreations: true,
  check: (timeline) => ({
    hits: isKnownOrder(timeline)
      ? []
      : timeline.events.map((event) => ({
          event,
          code: 'unknown-order',
          path: event.resource.orderField,
          value: timeline.orderId,
          message: `order "${timeline.orderId}" was never created, in this run or an earlier one`,
          hint: 'send the order creation first, or correct the order id',
        })),
  }),
};
