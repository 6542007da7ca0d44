import { error, type Issue } from '../core/issue.js';
import { parsedJsonText } from './parsedJsonText.js';
import { tooDeep } from './limitIssues.js';

/** One NDJSON line read: its value (absent when it is not JSON, or too deep), its reading issues, its text. */
export interface NdjsonLine {
  value?: unknown;
  issues: Issue[];
  text: string;
}

/** Reads one line of an NDJSON input that is not blank (a rejects file's reasons field dropped). */
export function readNdjsonLine(content: string): NdjsonLine {
  try {
    const read = parsedJsonText(content, JSON.parse(content));
    return 'tooDeep' in read ? { text: content, issues: [tooDeep()] } : { ...read, text: content };
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
