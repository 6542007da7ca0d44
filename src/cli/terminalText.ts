/** Control characters (C0 but tab and line feed, DEL, C1), line and paragraph separators, and bidi overrides. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from a peer or an input made safe to print on a terminal: every character that could move
 * the cursor, change colours or reorder the line is written as a `\uXXXX` escape instead.
 */
export function forTerminal(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
