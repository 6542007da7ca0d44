import { describe, expect, it } from 'vitest';
import { contentHash } from '../flow/canonical.js';
import { compileContentHash, MAX_FIELDS, type ShapeField } from './compiledHash.js';
import { random } from '../../test/helpers/random.js';

const KEYS = [
  'id',
  'b',
  'a',
  'A',
  '0',
  '10',
  '9',
  'é',
  'x y',
  'q"uote',
  'back\\slash',
  'Ω',
  '😀',
  'a_b',
  'a-b',
  'constructor',
];
const CHARS = [
  'a',
  'Z',
  '0',
  ' ',
  '"',
  '\\',
  '\n',
  '\t',
  '\r',
  '\b',
  '\f',
  '\u000b',
  '\u001a',
  '\udbff',
  '\udfff',
  '\u00a0',
  '\u0001',
  '\u001f',
  '\u007f',
  'é',
  'ß',
  '€',
  '\u2028',
  '😀',
  '\ud800',
  '\udc00',
  '|',
  ',',
];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function randomShape(next: () => number): ShapeField[] {
  const fields: ShapeField[] = [];
  const count = 1 + Math.floor(next() * 12);
  for (let n = 0; n < count; n++) {
    const depth = 1 + Math.floor(next() * 3);
    const segments: string[] = [];
    const indexNext: boolean[] = [];
    for (let d = 0; d < depth; d++) {
      const index = d > 0 && indexNext[d - 1];
      segments.push(index ? String(Math.floor(next() * 3)) : pick(next, KEYS));
      if (d < depth - 1) indexNext.push(next() < 0.3);
    }
    fields.push({ segments, indexNext });
  }
  return fields;
}

function randomLeaf(next: () => number): unknown {
  const roll = next();
  if (roll < 0.45) return Array.from({ length: Math.floor(next() * 8) }, () => pick(next, CHARS)).join('');
  if (roll < 0.6) return pick(next, [0, -0, 1, -1.5, 0.1, 1e21, 1e-7, 123456789012, NaN, Infinity, 2 ** 53]);
  if (roll < 0.7) return next() < 0.5;
  if (roll < 0.75) return null;
  if (roll < 0.85) return ['x', pick(next, CHARS), 3, undefined].slice(0, Math.floor(next() * 4));
  if (roll < 0.9) return { z: 1, a: [pick(next, CHARS)] }; // an object in a leaf (a JSON cell): keys to sort
  return undefined;
}

/** A record built the way the CSV row builder builds one: containers made on the way to each leaf that is set. */
function recordOf(fields: readonly ShapeField[], next: () => number): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { segments, indexNext } of fields) {
    if (next() < 0.25) continue;
    let target = record as Record<string, unknown>;
    segments.slice(0, -1).forEach((segment, i) => {
      target = (target[segment] ??= indexNext[i] ? [] : {}) as Record<string, unknown>;
    });
    const leaf = randomLeaf(next);
    if (typeof target === 'object' && target !== null) target[segments[segments.length - 1]!] = leaf;
  }
  if (next() < 0.05) record[pick(next, ['extra', 'a', 'zz'])] = 'not in the shape';
  return record;
}

describe('compileContentHash', () => {
  it('gives contentHash for 20,000 generated records of 2,000 generated shapes', () => {
    const next = random(16);
    let compiled = 0;
    for (let s = 0; s < 2000; s++) {
      const shape = randomShape(next);
      const hashOf = compileContentHash('order', shape);
      if (!hashOf) continue;
      compiled++;
      for (let r = 0; r < 10; r++) {
        const record = recordOf(shape, next);
        expect(hashOf(record), JSON.stringify(record)).toBe(contentHash('order', record));
      }
    }
    expect(compiled).toBeGreaterThan(500);
  });

  it('hashes the records of a CSV order header like contentHash, with the endpoint in the hash', () => {
    const shape: ShapeField[] = [
      { segments: ['id'], indexNext: [] },
      { segments: ['items', '0', 'product', 'sku'], indexNext: [true, false, false] },
      { segments: ['items', '1', 'quantity'], indexNext: [true, false] },
      { segments: ['user', 'name'], indexNext: [false] },
    ];
    const hashOf = compileContentHash('order', shape)!;
    const record = {
      id: 'ORD-1',
      items: [{ product: { sku: 'S' } }, { quantity: 2 }],
      user: { name: 'João "Jo" Silva\n' },
    };
    expect(hashOf(record)).toBe(contentHash('order', record));
    expect(hashOf(record)).not.toBe(contentHash('status', record));
    // A record with a hole where no column is (items.0 empty): null, as JSON.stringify writes it.
    const holey = { id: 'ORD-2', items: [undefined, { quantity: 1 }] };
    expect(hashOf(holey)).toBe(contentHash('order', holey));
  });

  it('grows its buffer for a long cell and stays equal', () => {
    const hashOf = compileContentHash('order', [{ segments: ['note'], indexNext: [] }])!;
    const record = { note: '"é\u0001'.repeat(200_000) };
    expect(hashOf(record)).toBe(contentHash('order', record));
    expect(hashOf({ note: 'short' })).toBe(contentHash('order', { note: 'short' }));
  });

  it('is not compiled for fields that conflict, name __proto__, or are too many', () => {
    expect(
      compileContentHash('order', [
        { segments: ['a'], indexNext: [] },
        { segments: ['a', 'b'], indexNext: [false] },
      ]),
    ).toBeUndefined();
    expect(
      compileContentHash('order', [
        { segments: ['a', '0'], indexNext: [true] },
        { segments: ['a', 'b'], indexNext: [false] },
      ]),
    ).toBeUndefined();
    expect(
      compileContentHash('order', [{ segments: ['__proto__', 'x'], indexNext: [false] }]),
    ).toBeUndefined();
    expect(
      compileContentHash('order', [{ segments: ['user', 'toString'], indexNext: [false] }]),
    ).toBeUndefined();
    // A very wide header (custom_data by the hundred): the plain hash is the faster one.
    const wide = Array.from({ length: MAX_FIELDS + 1 }, (_, n) => ({
      segments: ['custom_data', `k${n}`],
      indexNext: [false],
    }));
    expect(compileContentHash('order', wide)).toBeUndefined();
    expect(compileContentHash('order', wide.slice(0, MAX_FIELDS))).toBeDefined();
  });
});
