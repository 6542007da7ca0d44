import { registry } from '../resources/registry.js';
import type { CoverageField } from '../resources/shared/coverage.js';
import { isRecord } from '../schema/checks.js';

/** A non-empty value: not absent, null, '', [] or {}. */
export function present(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.length > 0;
  for (const _ in value) return true;
  return false;
}

/** Per endpoint, the fields whose presence the fraud models depend on: each resource's `coverage`. */
export const coverageFields: Readonly<Record<string, readonly CoverageField[]>> = Object.fromEntries(
  registry.all.map((resource) => [resource.name, resource.coverage ?? []]),
);

/** A field as read: its bit, and the keys after the top-level key (in a list: of each element). */
interface FieldRead {
  keys: readonly string[];
  bit: number;
}

/** The fields under one top-level key, so that a record's key is read once and a list walked once. */
interface KeyGroup {
  key: string;
  /** The bit of the key itself, 0 when it is no field of the list. */
  self: number;
  nested: FieldRead[];
  /** Fields of the list's elements, and all their bits. */
  elements: FieldRead[];
  elementBits: number;
}

/** An endpoint's fields grouped by top-level key, each path split once (not once a record). */
function keyGroups(fields: readonly CoverageField[]): KeyGroup[] {
  const groups = new Map<string, KeyGroup>();
  fields.forEach(({ path }, i) => {
    const bit = 1 << i;
    const [head, rest] = path.split('[].') as [string, string | undefined];
    const [key, ...nested] = head.split('.') as [string, ...string[]];
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, self: 0, nested: [], elements: [], elementBits: 0 }));
    if (rest !== undefined) {
      if (nested.length > 0) throw new Error(`coverage field ${path}: a list is a top-level key`);
      group.elements.push({ keys: rest.split('.'), bit });
      group.elementBits |= bit;
    } else if (nested.length === 0) group.self |= bit;
    else group.nested.push({ keys: nested, bit });
  });
  return [...groups.values()];
}

const groupsOf = new Map(
  Object.entries(coverageFields).map(([endpoint, fields]) => [endpoint, keyGroups(fields)]),
);

/** `value` read along `keys`; undefined where a step is not an object. */
function at(value: unknown, keys: readonly string[]): unknown {
  for (const key of keys) value = isRecord(value) ? value[key] : undefined;
  return value;
}

/** The bits of `reads` whose field one list element carries. */
function elementBits(element: unknown, reads: readonly FieldRead[], mask: number): number {
  for (const { keys, bit } of reads) if ((mask & bit) === 0 && present(at(element, keys))) mask |= bit;
  return mask;
}

/** The fields of `endpoint`'s list that `record` carries, as a bit mask (bit i: coverageFields[endpoint][i]). */
// Every record of every run goes through it: each top-level key read once, each list walked once at most.
export function coverageOf(endpoint: string, record: Record<string, unknown>): number {
  let mask = 0;
  for (const group of groupsOf.get(endpoint) ?? []) {
    const value = record[group.key];
    if (value === undefined || value === null) continue;
    if (group.self !== 0 && present(value)) mask |= group.self;
    for (const { keys, bit } of group.nested) if (present(at(value, keys))) mask |= bit;
    if (group.elementBits === 0 || !Array.isArray(value)) continue;
    for (const element of value) {
      mask = elementBits(element, group.elements, mask);
      if ((mask & group.elementBits) === group.elementBits) break;
    }
  }
  return mask;
}
