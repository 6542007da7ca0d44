import type * as z from 'zod';
import { closest } from '../core/suggest.js';
import { arrayElement, isFreeForm, objectShape } from '../schema/introspect.js';

type AnySchema = z.core.$ZodType;

/**
 * The schema a dotted target names, or a problem with a did-you-mean; free-form fields (custom_data) take any
 * path inside.
 */
export function resolveTarget(
  schema: AnySchema,
  segments: readonly string[],
): { schema?: AnySchema; problem?: string; hint?: string } {
  let current: AnySchema | undefined = schema;
  for (const [i, segment] of segments.entries()) {
    if (!current) break;
    if (isFreeForm(current)) return {};
    const element = arrayElement(current);
    if (element) {
      if (!/^\d+$/.test(segment))
        return {
          problem:
            `${segments.slice(0, i).join('.')} is a list: name a position (` +
            `${segments.slice(0, i).join('.')}.0.${segment}) or fill it with lists:`,
        };
      current = element;
      continue;
    }
    const shape = objectShape(current);
    const where = segments.slice(0, i).join('.');
    if (!shape) return { problem: `${where} is not an object, so ${segments.join('.')} cannot be filled` };
    if (!Object.hasOwn(shape, segment)) {
      const guess = closest(segment, Object.keys(shape));
      return {
        problem: `${segments.join('.')} is not a field the service knows`,
        hint: guess
          ? `did you mean ${[...segments.slice(0, i), guess].join('.')}?`
          : `the fields${where ? ` of ${where}` : ''} are: ${Object.keys(shape).join(', ')}`,
      };
    }
    current = shape[segment];
  }
  return current ? { schema: current } : {};
}

/** The element schema when a target is a list of objects (what `lists:` fills), else undefined. */
export function listElement(schema: AnySchema | undefined): AnySchema | undefined {
  const element = schema ? arrayElement(schema) : undefined;
  return element && objectShape(element) ? element : undefined;
}
