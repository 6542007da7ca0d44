import type * as z from 'zod';
import { warning, type Issue } from '../core/issue.js';
import { closest } from '../core/suggest.js';
import { arrayElement, isFreeForm, objectShape } from '../schema/introspect.js';
import { isRecord } from '../schema/checks.js';

type AnySchema = z.core.$ZodType;

/** Warns about every field the schema does not know, at any depth (`total_paid_valeu`). */
export function unknownFields(schema: AnySchema, value: unknown, prefix = '', out: Issue[] = []): Issue[] {
  if (isFreeForm(schema)) return out;
  const element = arrayElement(schema);
  if (element) {
    if (Array.isArray(value)) value.forEach((item, position) => unknownFields(element, item, `${prefix}${position}.`, out));
    return out;
  }
  const shape = objectShape(schema);
  if (!shape || !isRecord(value)) return out;
  for (const key of Object.keys(value)) {
    const field = shape[key];
    if (field && Object.hasOwn(shape, key)) {
      unknownFields(field, value[key], `${prefix}${key}.`, out);
      continue;
    }
    const guess = closest(key, Object.keys(shape));
    out.push(warning('unknown-field', `${prefix}${key}`, `${key} is not a field the service knows here`, {
      hint: guess ? `did you mean ${guess}?` : 'remove it, or check the spelling against `collect schema`',
    }));
  }
  return out;
}
