import { field, type CoverageField } from '../shared/coverage.js';

/** The fields of a delivery record whose presence the fraud models depend on (docs/payloads.md). */
export const deliveryCoverage: readonly CoverageField[] = [
  field('delivery_datetime', 'delivery time'),
  field('deliverer', 'deliverer'),
];
