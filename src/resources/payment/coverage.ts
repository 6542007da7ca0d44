import { field, type CoverageField } from '../shared/coverage.js';

/** The fields of a payment record whose presence the fraud models depend on (docs/payloads.md). */
export const paymentCoverage: readonly CoverageField[] = [field('acquirer_id', 'acquirer id')];
