import { describe, expect, it } from 'vitest';
import { random } from '../../test/helpers/random.js';
import { nestsDeeperThan } from '../core/depth.js';
import { inexactNumbers } from './inexactNumbers.js';
import { jsonTextShape } from './jsonTextShape.js';

const strings = ['a"b', 'x\\', '\\"', '4111111111111111', '1e5', 'end\\\\', 'é', ''];
const numbers = [
  '1',
  '-0.5',
  '1e5',
  '2E-3',
  '12345678901234567',
  '0.1000000000000000055',
  '123456789012345',
  '10.50',
];

/**
 * A JSON text with strings that hide quotes, backslashes and digits, numbers exact and not, and containers down
 * to `spine` levels (28 to 36, around the limit) with shallow ones beside them.
 */
function jsonText(next: () => number, depth = 0, spine = 28 + Math.floor(next() * 9)): string {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const roll = next();
  if (depth < spine || (depth < 40 && roll < 0.3)) {
    const size = Math.floor(next() * 3) + (depth < spine ? 1 : 0);
    const inner = Array.from({ length: size }, (_, i) => jsonText(next, depth + 1, i === 0 ? spine : 0));
    return next() < 0.5
      ? `[${inner.join(', ')}]`
      : `{${inner.map((v, i) => `${JSON.stringify(pick(strings) + i)}: ${v}`).join(',')}}`;
  }
  if (roll < 0.7) return JSON.stringify(pick(strings));
  if (roll < 0.95) return pick(numbers);
  return pick(['true', 'false', 'null']);
}

describe('jsonTextShape', () => {
  it('finds what the value walk and the number scan find, on 5,000 generated texts', () => {
    const next = random(7);
    let deep = 0;
    let inexact = 0;
    for (let n = 0; n < 5000; n++) {
      const text = jsonText(next);
      const shape = jsonTextShape(text, 32);
      expect(shape.tooDeep, text).toBe(nestsDeeperThan(JSON.parse(text), 32));
      if (shape.tooDeep) deep++;
      else if (inexactNumbers(text).length > 0) {
        inexact++;
        expect(shape.suspectNumber, text).toBe(true);
      }
    }
    // The generator reaches both cases often enough for the comparison to mean something.
    expect(deep).toBeGreaterThan(20);
    expect(inexact).toBeGreaterThan(100);
  });

  it('ignores digits and exponents inside strings, even after escaped quotes', () => {
    expect(jsonTextShape('{"card":"4111111111111111","a\\"":"1e5\\\\","n":10.5}', 32).suspectNumber).toBe(
      false,
    );
    expect(jsonTextShape('{"a\\\\":12345678901234567}', 32).suspectNumber).toBe(true);
    expect(jsonTextShape('[1e400]', 32).suspectNumber).toBe(true);
  });

  it('counts depth as the value walk does, at the limit and one past it', () => {
    expect(jsonTextShape('['.repeat(32) + ']'.repeat(32), 32).tooDeep).toBe(false);
    expect(jsonTextShape('['.repeat(33) + ']'.repeat(33), 32).tooDeep).toBe(true);
    expect(jsonTextShape('{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 32).tooDeep).toBe(false);
  });
});
