import type { FlowRule } from './rule.js';
import { where } from './rule.js';

/**
 * An order's records move together (§1.6): an update of an order whose only creations in this
 * run are invalid would reach a service that never heard of the order, and be lost there.
 */
export const orderInvalidRule: FlowRule = {
  code: 'order-invalid',
  severity: 'error',
  spec: '§1.6, §3 rule 1',
  catches:
    "a status update, fraud mark, payment update or delivery whose order's creation in this run is " +
    'invalid (and no earlier run created the order)',
  fix:
    "fix the order's creation (its file and line are named); the order's other records are kept with " +
    'it in --rejects, so feeding that file back sends the whole order',
  appliesTo: 'updates',
  needsCreations: false,
  judgedLast: true,
  check: (timeline, _knowledge, faulted) => {
    if (timeline.prior?.created === true || timeline.prior?.decision != null) return { hits: [] };
    const creations = timeline.events.filter((event) => event.resource.role === 'creation');
    if (creations.length === 0 || creations.some((event) => !faulted(event))) return { hits: [] };
    const creation = creations[0]!;
    const why = creation.fault ? ` (${creation.fault})` : '';
    return {
      hits: timeline.events
        .filter((event) => event.resource.role === 'update')
        .map((event) => ({
          event,
          code: 'order-invalid',
          path: event.resource.orderField,
          value: timeline.orderId,
          message:
            `the creation of order "${timeline.orderId}" at ${where(creation)} is invalid${why}: the ` +
            `service will not have the order, so this record is held with it`,
          hint:
            `fix the creation at ${where(creation)} and send it first; --rejects keeps the order's ` +
            `records together`,
        })),
    };
  },
};
