import { field, type CoverageField } from '../shared/coverage.js';

/** The fields of a fraud record whose presence the fraud models depend on (docs/payloads.md). */
export const fraudCoverage: readonly CoverageField[] = [field('fraud_comment', 'comment')];
