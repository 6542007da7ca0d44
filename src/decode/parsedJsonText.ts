import type { Issue } from '../core/issue.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { inexactNumbers } from './inexactNumbers.js';
import { jsonTextShape } from './jsonTextShape.js';
import { withoutReason } from './withoutReason.js';

/**
 * A record's JSON text and its parsed value, read alike from an NDJSON line or a JSON array's element: too deep,
 * or its value (a rejects file's reasons field dropped) with the numbers JSON.parse changed.
 */
export function parsedJsonText(
  text: string,
  value: unknown,
): { tooDeep: true } | { value: unknown; issues: Issue[] } {
  const shape = jsonTextShape(text, MAX_DEPTH);
  // A repeated key keeps only its last value: a text deeper than its value is judged by the value.
  if (shape.tooDeep && nestsDeeperThan(value, MAX_DEPTH)) return { tooDeep: true };
  const issues = shape.tooDeep || shape.suspectNumber ? inexactNumbers(text) : [];
  return { value: withoutReason(value), issues };
}
