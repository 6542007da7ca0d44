import { describe, expect, it } from 'vitest';
import { random } from '../../test/helpers/random.js';
import { JsonSplitter, type SplitEvent } from './jsonSplitter.js';

/** String bodies that hide what the splitter looks for: quotes, backslashes, brackets, line breaks. */
const bodies = ['plain', '\\"', '\\\\', '\\\\\\"x', 'a\nb', '\\\n', '[{,}]', 'é\\u00e9', '', '\\\\\n"'];

/** A document of `count` elements (objects, lists, bare values), some strings broken, maybe truncated. */
function documentText(next: () => number, count: number): string {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const element = (n: number): string => {
    const roll = next();
    if (roll < 0.6)
      return `{"id":"E${n}","note":"${pick(bodies)}","list":[1,"${pick(bodies)}",{"x":"${pick(bodies)}"}]}`;
    if (roll < 0.8) return `["${pick(bodies)}",\n["${pick(bodies)}"]]`;
    return pick(['12.5', 'true', `"${pick(bodies)}"`]);
  };
  const text = `[\n${Array.from({ length: count }, (_, n) => element(n)).join(next() < 0.5 ? ',\n' : ', ')}\n]\n`;
  return next() < 0.2 ? text.slice(0, Math.floor(next() * text.length)) : text;
}

/** The events of one splitter over the text, fed in reads of `step` characters. */
function split(text: string, step: number): SplitEvent[] {
  const splitter = new JsonSplitter(400);
  const events: SplitEvent[] = [];
  for (let at = 0; at < text.length; at += step) events.push(...splitter.push(text.slice(at, at + step)));
  return [...events, ...splitter.end()];
}

describe('JsonSplitter', () => {
  it('finds the same elements, lines and problems whatever the reads, one character at a time included', () => {
    const next = random(11);
    for (let n = 0; n < 300; n++) {
      const text = documentText(next, 1 + Math.floor(next() * 12));
      const oneByOne = split(text, 1);
      for (const step of [2, 5, 64, text.length || 1])
        expect(split(text, step), `${step}: ${text}`).toEqual(oneByOne);
    }
  });

  it('keeps escaped quotes and backslashes inside an element, and counts line breaks in strings', () => {
    const events = split('[{"a":"x\\"]"},\n{"b":"\\\\"},\n{"c":"1\n2"},\n{"d":1}]', 1000);
    expect(
      events.map((event) => ('element' in event ? [event.element.line, event.element.text] : event)),
    ).toEqual([
      [1, '{"a":"x\\"]"}'],
      [2, '{"b":"\\\\"}'],
      [3, '{"c":"1\n2"}'],
      [5, '{"d":1}'],
    ]);
  });
});
