import * as z from 'zod';
import { compiledFrom } from './compiledFrom.js';
import { alwaysRunChecks } from '../schema/checks.js';

/**
 * zod's compiled twin of a schema (z.compile), or undefined when z.compile refuses it. z.compile
 * refuses a check with its own `when`; the object checks' `when` always answers true, which is
 * what the compiled code does (it runs every check of a record whose fields passed), so it is
 * left out while compiling and put back after.
 */
export function compiledTwin(schema: z.ZodType): z.ZodType | undefined {
  const hidden = [...alwaysRunChecks].map((check) => [check._zod.def, check._zod.def.when] as const);
  try {
    for (const [def] of hidden) def.when = undefined;
    return z.compile(schema, { strict: true });
  } catch {
    return undefined;
  } finally {
    for (const [def, when] of hidden) def.when = when;
  }
}

/**
 * Records a validator checks with safeParse before it compiles the twin (some milliseconds): a short input
 * never pays for it.
 */
export const COMPILE_AFTER = 100;

/**
 * Whether a value passes a schema, as `schema.safeParse(value).success` answers: from the
 * COMPILE_AFTER-th record on through the compiled twin, several times faster on a valid record
 * (it falls back to the runtime parser on any other); through safeParse for a schema z.compile refuses.
 */
export function fastValidator(schema: z.ZodType): (value: unknown) => boolean {
  const passes = (parser: z.ZodType) => (value: unknown) => parser.safeParse(value).success;
  return compiledFrom(COMPILE_AFTER, passes(schema), () => {
    const twin = compiledTwin(schema);
    return twin && passes(twin);
  });
}

/** Each schema's validator, made once: the `validatorOf` a run hands to checkRecord (validate/validateRecord.ts). */
const validators = new WeakMap<z.ZodType, (value: unknown) => boolean>();

export function validatorOf(schema: z.ZodType): (value: unknown) => boolean {
  let validator = validators.get(schema);
  if (!validator) validators.set(schema, (validator = fastValidator(schema)));
  return validator;
}
