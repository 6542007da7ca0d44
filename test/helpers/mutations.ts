/** Seeded random changes to records: what a differential test of two validators feeds both. */

const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  0,
  -1,
  1.5,
  1e21,
  Number.NaN,
  true,
  false,
  [],
  {},
  ['a'],
  [{}],
  '2024-13-01T00:00:00Z',
  '2024-03-01T14:30:00Z',
  '2024-03-01',
  'not-an-email@',
  '11987654321',
  '411111',
  '12/2029',
  '1234',
  'BRL',
  'approved',
  'other',
];

/** Every path to a value inside a record (object keys and array positions). */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [
    prefix,
    ...keys.flatMap((key) => pathsOf((value as Record<string | number, unknown>)[key], [...prefix, key])),
  ];
}

/**
 * A copy of `record` with one to three random changes: a value replaced, a key removed, an array element
 * repeated, a key added.
 */
export function mutated(record: unknown, next: () => number): unknown {
  const copy = structuredClone(record) as Record<string, unknown>;
  const changes = 1 + Math.floor(next() * 3);
  for (let n = 0; n < changes; n++) {
    const paths = pathsOf(copy).filter((path) => path.length > 0);
    const path = paths[Math.floor(next() * paths.length)]!;
    const parent = path
      .slice(0, -1)
      .reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], copy) as Record<
      string | number,
      unknown
    >;
    const key = path[path.length - 1]!;
    const roll = next();
    if (roll < 0.6) parent[key] = structuredClone(ODD_VALUES[Math.floor(next() * ODD_VALUES.length)]);
    else if (roll < 0.8 && !Array.isArray(parent)) delete parent[key];
    else if (Array.isArray(parent)) parent.push(structuredClone(parent[key as number]));
    else parent[`extra_${n}`] = 'x';
  }
  return copy;
}
