/**
 * Evaluation decisions counted by their text, which comes from the service (or an upstream behind
 * the sandbox) and is not ours to trust: a few distinct ones are kept, each cut to a length, and
 * the rest are counted as OTHER_DECISIONS, so that every format of the report stays small.
 */

/** Distinct decisions counted by name: the service documents four (approve, reject, manual, unavailable). */
export const DECISIONS_KEPT = 12;
/** Characters of a decision kept: a longer one is cut (and ends in …). */
export const DECISION_LENGTH = 40;
/** Where the decisions past DECISIONS_KEPT are counted. */
export const OTHER_DECISIONS = 'other';

/** A decision as the report names it: cut to DECISION_LENGTH characters. */
export function decisionName(decision: string): string {
  const chars = [...decision];
  return chars.length <= DECISION_LENGTH ? decision : `${chars.slice(0, DECISION_LENGTH - 1).join('')}…`;
}

/** Counts one decision into `counts` (in place): a new name past DECISIONS_KEPT goes to OTHER_DECISIONS. */
export function countDecision(counts: Record<string, number>, decision: string): void {
  const name = decisionName(decision);
  const known = Object.hasOwn(counts, name);
  const named = Object.keys(counts).length - (Object.hasOwn(counts, OTHER_DECISIONS) ? 1 : 0);
  const key = known || named < DECISIONS_KEPT ? name : OTHER_DECISIONS;
  const value = (Object.hasOwn(counts, key) ? counts[key]! : 0) + 1;
  // Defined, not assigned: a decision named `__proto__` or `constructor` is counted like any other.
  Object.defineProperty(counts, key, { value, enumerable: true, writable: true, configurable: true });
}
