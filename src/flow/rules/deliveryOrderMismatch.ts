import type { FlowRule } from './rule.js';
import { eventsOf } from './rule.js';

export const deliveryOrderMismatchRule: FlowRule = {
  code: 'delivery-order-mismatch',
  severity: 'error',
  spec: '§2.3',
  catches: 'a delivery update whose id belongs to a delivery of another order',
  fix: 'correct order_id, or the delivery id',
  appliesTo: ['delivery'],
  needsCreations: true,
  check: (timeline) => ({
    hits: eventsOf(timeline, 'delivery')
      .filter((event) => (event.owners ?? []).length > 0 && !event.owners!.includes(timeline.orderId))
      .map((event) => ({
        event,
        code: 'delivery-order-mismatch',
        path: 'order_id',
        value: timeline.orderId,
        message:
          `delivery "${event.facts.deliveryId}" belongs to order "${event.owners![0]}", not "` +
          `${timeline.orderId}"`,
        hint: 'correct order_id, or the delivery id',
      })),
  }),
};
