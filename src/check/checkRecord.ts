import type { Issue } from '../core/issue.js';
import { contentHash } from '../flow/canonical.js';
import { locateInChildren } from '../mapping/applyRow.js';
import type { Facts, Resource } from '../resources/resource.js';
import { isRecord } from '../schema/checks.js';
import { validateRecord, type ValidatorOf } from '../validate/validateRecord.js';
import { flowOf, packFlow } from '../report/orderFlow.js';
import { coverageOf } from '../report/fieldCoverage.js';

/**
 * A record held to its endpoint: every issue, its order id ('' with none), flow facts (null: none)
 * and content hash ('' with no facts); facts null and hash '' too where the run asked for ids only.
 */
export interface CheckedRecord {
  issues: Issue[];
  orderId: string;
  facts: Facts | null;
  hash: string;
  /** The fields of its endpoint's coverage list it carries, as a bit mask (fieldCoverage.ts); 0 for none. */
  coverage: number;
  /**
   * Where the run asked for ids only: a creation's own flow, packed (orderFlow.ts), for the flow coverage; 0
   * with no facts.
   */
  flow?: number;
}

/** How the records of one input are checked: the run's clock, and what a decoder already did for them. */
export interface CheckOptions {
  now: Date;
  /** The field names were checked once for the whole file (a CSV header). */
  fieldsChecked?: boolean;
  /** The flow facts and content hash are wanted (a run that needs only ids and issues skips them). */
  digest?: boolean;
  /** The content hash of this input's records (a compiled one, recordHash.ts); contentHash by default. */
  hashOf?: (value: Record<string, unknown>) => string;
  /** Whether a record passes its schema (a compiled twin, fast/fastValidator.ts); safeParse by default. */
  validatorOf?: ValidatorOf;
}

/** A mapped record's list elements: the file and line of the row each came from, by path. */
export type Children = ReadonlyMap<string, { file: string; line: number }> | undefined;

/**
 * The one check of a record, on a worker or on the main thread alike: schema, unknown fields and the
 * endpoint's checks (after the issues its decoding found), then its order id, facts and hash.
 */
export function checkRecord(
  resource: Resource,
  value: unknown,
  decoded: Issue[],
  options: CheckOptions,
  children?: Children,
): CheckedRecord {
  // A record that could not be decoded has only its decoding's issues.
  if (value === undefined) return { issues: decoded, orderId: '', facts: null, hash: '', coverage: 0 };
  const found = validateRecord(resource, value, { now: options.now }, decoded, {
    fieldsChecked: options.fieldsChecked === true,
    ...(options.validatorOf ? { validatorOf: options.validatorOf } : {}),
  });
  const issues = children ? locateInChildren(found, children) : found;
  if (!isRecord(value)) return { issues, orderId: '', facts: null, hash: '', coverage: 0 };
  const id = value[resource.orderField];
  const orderId = typeof id === 'string' ? id : '';
  // Counted for every record, so that any report can show which fields the models get (the HTML report's coverage).
  const coverage = coverageOf(resource.name, value);
  if (options.digest === false) {
    if (resource.role !== 'creation') return { issues, orderId, facts: null, hash: '', coverage };
    // The creations-only path reads ids only, yet counts each order's flow: a number, not the facts, crosses threads.
    const own = resource.facts(value);
    const flow = own ? packFlow(flowOf(null, [{ facts: own }])) : 0;
    return { issues, orderId, facts: null, hash: '', coverage, flow };
  }
  const facts = resource.facts(value);
  const hash = facts ? (options.hashOf ? options.hashOf(value) : contentHash(resource.name, value)) : '';
  return { issues, orderId, facts, hash, coverage };
}
