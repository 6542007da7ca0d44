import { error, type Issue } from '../core/issue.js';
import { isRecord } from '../schema/checks.js';
import type { Resource, ValidationContext } from '../resources/resource.js';
import { unknownFields } from '../schema/unknownFields.js';
import { fromZodError, preferSpecific } from './zodIssues.js';

/**
 * Whether a value passes a schema (a compiled twin handed in by the caller, fast/fastValidator.ts); safeParse
 * by default.
 */
export type ValidatorOf = (schema: Resource['schema']) => (value: unknown) => boolean;

const plainPasses = (schema: Resource['schema'], value: unknown) => schema.safeParse(value).success;

/**
 * Every problem of one record against its endpoint: schema errors, unknown fields and
 * data-quality hints. Never throws for bad input. `preceding` are issues found while
 * reading the record (a cell that is not a number); they win over schema issues on the same field.
 * `fieldsChecked`: the record's field names were checked once for its whole file (a CSV header).
 */
export function validateRecord(
  resource: Resource,
  value: unknown,
  context: ValidationContext,
  preceding: readonly Issue[] = [],
  options: { fieldsChecked?: boolean; validatorOf?: ValidatorOf } = {},
): Issue[] {
  if (!isRecord(value)) {
    return [
      ...preceding,
      error(
        'invalid-type',
        '',
        `each ${resource.name} record must be a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value}`,
        {
          hint: `give one object per record, e.g. ${JSON.stringify(resource.example).slice(0, 60)}…`,
        },
      ),
    ];
  }
  const issues: Issue[] = [...preceding];
  // The offending values (reportInput) are costly: asked for only when there are issues to show them in.
  const passes = options.validatorOf?.(resource.schema)(value) ?? plainPasses(resource.schema, value);
  const parsed = passes
    ? { success: true as const }
    : resource.schema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    const taken = new Set(preceding.map((issue) => issue.path));
    issues.push(...fromZodError(parsed.error.issues).filter((issue) => !taken.has(issue.path)));
  }
  if (!options.fieldsChecked) issues.push(...unknownFields(resource.schema, value));
  issues.push(...resource.checks(value, context));
  // Most records have no issue at all: skip the bookkeeping (this runs once per record of a backfill).
  return issues.length === 0 ? issues : preferSpecific(issues);
}
