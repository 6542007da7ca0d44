import type * as z from 'zod';

/** What a leaf field holds; drives CSV cell conversion. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'string-array' | 'json' | 'unknown';

type AnySchema = z.core.$ZodType;
type Def = {
  type: string;
  innerType?: AnySchema;
  in?: AnySchema;
  shape?: Record<string, AnySchema>;
  element?: AnySchema;
  checks?: { _zod: { def: { check: string; format?: string } } }[];
};

const defOf = (schema: AnySchema) => schema._zod.def as unknown as Def;

/** Strips optional/nullable/default/pipe wrappers down to the schema that describes the value. */
export function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}

/** The fields of an object schema, or undefined when the schema is not an object. */
export function objectShape(schema: AnySchema): Record<string, AnySchema> | undefined {
  const def = defOf(unwrap(schema));
  return def.type === 'object' ? def.shape : undefined;
}

/** The element schema of an array schema, or undefined. */
export function arrayElement(schema: AnySchema): AnySchema | undefined {
  const def = defOf(unwrap(schema));
  return def.type === 'array' ? def.element : undefined;
}

/** True for free-form objects (`custom_data`), whose insides are the client's own. */
export function isFreeForm(schema: AnySchema): boolean {
  return defOf(unwrap(schema)).type === 'record';
}

function kindOf(schema: AnySchema): FieldKind {
  const def = defOf(unwrap(schema));
  switch (def.type) {
    case 'string':
    case 'enum':
      return 'string';
    case 'number':
      return def.checks?.some((check) => check._zod.def.format === 'safeint') ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    case 'record':
      return 'json';
    case 'array': {
      const element = def.element;
      return element && kindOf(element) === 'string' ? 'string-array' : 'unknown';
    }
    default:
      return 'unknown';
  }
}

/**
 * The kind of field a dotted path names in a schema: `payments.0.value` is a number.
 * Paths under free-form objects, or outside the schema, are `unknown`, kept as text.
 */
export function fieldKindAt(schema: AnySchema, segments: readonly string[]): FieldKind {
  let current: AnySchema | undefined = schema;
  for (const segment of segments) {
    if (!current) return 'unknown';
    const element = arrayElement(current);
    if (element) {
      current = /^\d+$/.test(segment) ? element : undefined;
      continue;
    }
    const shape = objectShape(current);
    current = shape && Object.hasOwn(shape, segment) ? shape[segment] : undefined;
  }
  return current ? kindOf(current) : 'unknown';
}
