import type { FlowRule } from './rule.js';
import { isKnownOrder } from './rule.js';

/** A fraud mark is most often for an order the platform created, not collect: its decision makes it known. */
const PLATFORM_ORDER =
  'correct the order id, or send its creation first; for an order the platform created itself, ' +
  'load its decision first: collect decisions FILE (columns order_id,decision) with the same ' +
  '--base-url and --state';

export const unknownOrderRule: FlowRule = {
  code: 'unknown-order',
  severity: 'error',
  spec: '§2.1, §2.3, §2.6',
  catches:
    'a status update, fraud mark, payment update or delivery whose order id was never created, in ' +
    'this run or an earlier one',
  fix:
    'send the order creation first (collect order, or --order in a backfill), or correct the order ' +
    'id; a fraud mark for an order the platform created itself: load its decision first (collect ' +
    'decisions)',
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
          hint:
            event.facts.kind === 'fraud'
              ? PLATFORM_ORDER
              : 'send the order creation first, or correct the order id',
        })),
  }),
};
