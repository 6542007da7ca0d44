import { describe, expect, it } from 'vitest';
import { JsonSplitter, type SplitEvent } from '../decode/jsonSplitter.js';
import { arrayStart, JsonArraySplitter, lineBreaks } from './jsonArraySplitter.js';

/**
 * Elements of every shape the splitter must not cut inside: strings with brackets, commas, escapes, quotes,
 * line breaks.
 */
const kinds = [
  (n: number) => `{"id":"R${n}","note":"a, [b] {c} \\"q\\" \\\\"}`,
  (n: number) => `{"id":"R${n}",\n "list":[1,[2,{"x":"]"}]]}`,
  () => '"a string, with ] and } in it"',
  () => '12.5e3 ',
  () => '[ ]',
  () => 'tru',
  (n: number) => `{"é":"ü${n}\\u00e9","back":"\\\\"}\r`,
  () => '"line\nbreak in a string"',
  () => '{"broken": }',
  (n: number) => `{"id":"R${n}","q":"x\\", ], {"}`,
];

function doc(count: number, end: string): string {
  return (
    `\n [` +
    `${Array.from({ length: count }, (_, n) => kinds[n % kinds.length]!(n)).join(count % 2 ? ',\n' : ' ,')}` +
    `${end}`
  );
}

/** The events of one splitter over the whole text, in reads of `step` characters. */
function whole(text: string, step: number): SplitEvent[] {
  const splitter = new JsonSplitter(300);
  const events: SplitEvent[] = [];
  for (let at = 0; at < text.length; at += step) events.push(...splitter.push(text.slice(at, at + step)));
  return [...events, ...splitter.end()];
}

/** The same text cut on bytes into pieces, each split by a splitter taken up inside the array at its first line. */
function cut(text: string, step: number, target: number): SplitEvent[] {
  const bytes = Buffer.from(text);
  const start = arrayStart(bytes);
  let line = 1 + lineBreaks(bytes.subarray(0, start));
  const cutter = new JsonArraySplitter(target, 0);
  const events: SplitEvent[] = [];
  const split = (piece: Buffer, last: boolean) => {
    const splitter = new JsonSplitter(300, { mode: 'array', line });
    const found = splitter.push(piece.toString('utf8'));
    events.push(...found, ...(last ? splitter.end() : []));
    line += lineBreaks(piece);
  };
  let at = start;
  for (; at < bytes.length && !cutter.closed; at += step) {
    for (const piece of cutter.push(bytes.subarray(at, at + step))) split(piece, false);
  }
  if (!cutter.closed) split(cutter.end(), true);
  else {
    // After the array: what the cutter holds and the bytes not yet read, split as the rest of the document.
    const after = new JsonSplitter(300, { mode: 'after', line });
    events.push(
      ...after.push(Buffer.concat([cutter.end(), bytes.subarray(at)]).toString('utf8')),
      ...after.end(),
    );
  }
  return events;
}

describe('JsonArraySplitter', () => {
  it.each([
    ['a whole array', 400, '\n]\n'],
    ['an array with text after its end', 400, '] x, y'],
    ['a truncated array', 400, ',\n{"id":"T","st'],
    ['an array cut inside a string', 400, ',"abc\\'],
    ['an array ended by a comma', 401, ','],
    ['an array ended by a brace', 400, '}'],
  ])('cuts only between elements, so that pieces split as the whole does: %s', (_, count, end) => {
    const text = doc(count, end);
    for (const step of [1, 7, 64, 1000]) {
      for (const target of [1, 50, 4096]) expect(cut(text, step, target)).toEqual(whole(text, 13));
    }
  });

  it('makes pieces of about the target size', () => {
    const cutter = new JsonArraySplitter(1000, 0);
    const pieces = cutter.push(Buffer.from(doc(400, ']').slice(3)));
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(1000 - 200);
  });

  it('stops cutting past the limit without a cut point', () => {
    const cutter = new JsonArraySplitter(100, 1000);
    expect(cutter.push(Buffer.from(`{"a":"${'x'.repeat(2000)}`))).toEqual([]);
    expect(cutter.overflowed).toBe(true);
  });

  it('finds where an array starts: after blanks and a byte order mark, not in another document', () => {
    expect(arrayStart(Buffer.from('\uFEFF \n[1]'))).toBe(6);
    expect(arrayStart(Buffer.from(' {"a":1}'))).toBe(-1);
    expect(arrayStart(Buffer.from('   '))).toBe(-1);
  });
});
