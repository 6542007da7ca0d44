import { error, type Issue } from '../core/issue.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { inexactNumbers } from './inexactNumbers.js';
import { jsonTextShape } from './jsonTextShape.js';
import { tooDeep } from './limitIssues.js';
import { withoutReason } from './withoutReason.js';

/** One NDJSON line read: its value (absent when it is not JSON, or too deep), its reading issues, its text. */
export interface NdjsonLine {
  value?: unknown;
  issues: Issue[];
  text: string;
}

/** Reads one line of an NDJSON input that is not blank (a rejects file's reasons field dropped). */
export function readNdjsonLine(content: string): NdjsonLine {
  try {
    const value = JSON.parse(content) as unknown;
    const shape = jsonTextShape(content, MAX_DEPTH);
    // A repeated key keeps only its last value: a text deeper than its value is judged by the value.
    if (shape.tooDeep && nestsDeeperThan(value, MAX_DEPTH)) return { text: content, issues: [tooDeep()] };
    const issues = shape.tooDeep || shape.suspectNumber ? inexactNumbers(content) : [];
    return { value: withoutReason(value), issues, text: content };
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    return {
      text: content,
      issues: [
        error('invalid-json', '', `the line is not valid JSON: ${message}`, {
          hint: 'each line must hold one complete JSON object',
        }),
      ],
    };
  }
}
