import { field, type CoverageField } from '../shared/coverage.js';

/** The fields of a status record whose presence the fraud models depend on (docs/payloads.md). */
export const statusCoverage: readonly CoverageField[] = [field('status_reason', 'status reason')];
