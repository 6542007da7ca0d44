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

/** `value` read along a dotted path; undefined where a step is not an object. */
function at(value: unknown, keys: readonly string[]): unknown {
  for (const key of keys) value = isRecord(value) ? value[key] : undefined;
  return value;
}

/**
 * The fields of `endpoint`'s list that `record` carries, as a bit mask (bit i: coverageFields[endpoint][i]):
 * each field's path walked as written.
 */
// Every record of every run goes through it; its compiled twin (under 1 µs a record) was under a fast path's 5 % bar.
export function coverageOf(endpoint: string, record: Record<string, unknown>): number {
  let mask = 0;
  (coverageFields[endpoint] ?? []).forEach(({ path }, i) => {
    const [list, rest] = path.split('[].');
    const carried =
      rest === undefined
        ? present(at(record, path.split('.')))
        : [at(record, list!.split('.'))].some(
            (v) => Array.isArray(v) && v.some((element) => present(at(element, rest.split('.')))),
          );
    if (carried) mask |= 1 << i;
  });
  return mask;
}
