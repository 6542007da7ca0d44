// The fast twin of check/fieldCoverage.ts's plainCoverageOf (COLLECT_FAST_PATHS=0 takes the plain one):
// a field's bit per field the record carries, from a function with literal property names.

/** The fields under one top-level key, so a record's key is read once and a list walked once. */
interface KeyGroup {
  key: string;
  /** The bit of the key itself, 0 when it is not a field of the list. */
  self: number;
  nested: { keys: string[]; bit: number }[];
  /** Fields of the list's elements, and all their bits. */
  elements: { keys: string[]; bit: number }[];
  elementBits: number;
}

function compile(fields: readonly { path: string }[]): KeyGroup[] {
  const groups = new Map<string, KeyGroup>();
  fields.forEach(({ path }, i) => {
    const bit = 1 << i;
    const [head, rest] = path.includes('[].') ? path.split('[].') : [path.split('.')[0]!, undefined];
    const key = head!.split('.')[0]!;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, self: 0, nested: [], elements: [], elementBits: 0 }));
    if (rest !== undefined) {
      group.elements.push({ keys: rest.split('.'), bit });
      group.elementBits |= bit;
    } else if (path === key) group.self |= bit;
    else group.nested.push({ keys: path.split('.').slice(1), bit });
  });
  return [...groups.values()];
}

/** `value` read along `keys` with literal property names (names from the coverage lists, never from input). */
const access = (value: string, keys: readonly string[]) =>
  keys
    .map((key) => `[${JSON.stringify(key)}]`)
    .reduce((path, key) => `(isRecord(${path}) ? ${path}${key} : undefined)`, value);

/**
 * The mask of one endpoint as a function with literal property names: a generic walk's keyed
 * loads with varying keys are megamorphic and cost about a microsecond a record (1M records: 1 s).
 */
export function compiledCoverage(
  fields: readonly { path: string }[],
  present: (value: unknown) => boolean,
  isRecord: (value: unknown) => value is Record<string, unknown>,
): (record: Record<string, unknown>) => number {
  const code = ['let m = 0, v, e;'];
  for (const group of compile(fields)) {
    code.push(`v = r[${JSON.stringify(group.key)}];`, 'if (v !== undefined && v !== null) {');
    if (group.self !== 0) code.push(`  if (present(v)) m |= ${group.self};`);
    for (const { keys, bit } of group.nested) code.push(`  if (present(${access('v', keys)})) m |= ${bit};`);
    if (group.elementBits !== 0) {
      code.push('  if (Array.isArray(v)) for (e of v) {');
      for (const { keys, bit } of group.elements)
        code.push(`    if ((m & ${bit}) === 0 && present(${access('e', keys)})) m |= ${bit};`);
      code.push(`    if ((m & ${group.elementBits}) === ${group.elementBits}) break;`, '  }');
    }
    code.push('}');
  }
  code.push('return m;');
  return new Function('present', 'isRecord', `return (r) => {\n${code.join('\n')}\n};`)(
    present,
    isRecord,
  ) as (record: Record<string, unknown>) => number;
}
