import { error, type Issue } from '../core/issue.js';
import { isRecord } from '../schema/checks.js';
import { fastValidator } from '../fast/fastValidator.js';
import type { Resource, ValidationContext } from '../resources/resource.js';
import { unknownFields } from '../schema/unknownFields.js';
import { fromZodError, preferSpecific } from './zodIssues.js';

/** Each schema's validator (fastValidator.ts: it compiles the schema once it has checked a few records). */
const validators = new WeakMap<Resource['schema'], (value: unknown) => boolean>();

function passes(schema: Resource['schema'], value: unknown): boolean {
  let validator = validators.get(schema);
  if (!validator) validators.set(schema, (validator = fastValidator(schema)));
  return validator(value);
}

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
  options: { fieldsChecked?: boolean } = {},
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
  const parsed = passes(resource.schema, value)
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
