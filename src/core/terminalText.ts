/**
 * C0 controls, DEL and C1 controls: what a terminal acts on (ESC and CSI start sequences that clear
 * the screen or set the clipboard); and line and paragraph separators and bidi overrides, which reorder what is shown.
 */
// eslint-disable-next-line no-control-regex -- these are the characters it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- the same, a line break and a tab apart
const CONTROL_BUT_LF = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escaped = (char: string) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A string from input or the network as a terminal may show it: each control character written
 * as its JSON escape (`\u001b`, `\n`), so text can name a hostile key or header without the
 * terminal running it. For what goes to a terminal only; JSON and files keep the data as it is.
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL, escaped);
}

/** As terminalText, but line breaks and tabs stay: for messages of several lines that quote hostile text. */
export function terminalLines(text: string): string {
  return text.replace(CONTROL_BUT_LF, escaped);
}
