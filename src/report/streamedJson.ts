/**
 * `JSON.stringify(value, null, 2)` with one array streamed item by item where `value` holds the
 * string `marker`: the same text, without ever holding the whole array's text (V8 caps a string
 * at about 512 MiB; a report of a million issues passes it).
 */
export function* streamedJson(value: unknown, marker: string, items: Iterable<unknown>): Generator<string> {
  const text = JSON.stringify(value, null, 2);
  const token = JSON.stringify(marker);
  const at = text.indexOf(token);
  if (at < 0) throw new Error('streamedJson: the marker is not in the value');
  const indent = /^ */.exec(text.slice(text.lastIndexOf('\n', at) + 1))![0];
  const inner = `${indent}  `;
  yield text.slice(0, at);
  let first = true;
  for (const item of items) {
    yield `${first ? '[\n' : ',\n'}${itemText(item, inner)}`;
    first = false;
  }
  yield first ? '[]' : `\n${indent}]`;
  yield text.slice(at + token.length);
}

/** One item of a streamed array as it is written, at its indent. */
export const itemText = (item: unknown, inner: string): string =>
  `${inner}${JSON.stringify(item, null, 2).replace(/\n/g, `\n${inner}`)}`;

/** A marker no report's text holds: a NUL (escaped in JSON) around a random word. */
export const freshMarker = (): string => `\u0000${Math.random().toString(36).slice(2)}\u0000`;
