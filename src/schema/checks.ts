import * as z from 'zod';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/** The object checks made by objectCheck: their `when` always answers true (fastValidator.ts relies on it). */
export const alwaysRunChecks = new Set<z.core.$ZodCheck<Record<string, unknown>>>();

/**
 * Object-level checks run even when a field of the object has a type error (`when`),
 * so one run reports every problem of a record.
 */
export function objectCheck(run: (value: Record<string, unknown>, ctx: z.RefinementCtx) => void) {
  const check = z.superRefine<Record<string, unknown>>(
    (value, ctx) => {
      if (isRecord(value)) run(value, ctx);
    },
    { when: () => true },
  );
  alwaysRunChecks.add(check);
  return check;
}

/** Two fields that only make sense together (a phone number and its country code). */
export function pairedFields(first: string, second: string) {
  return objectCheck((value, ctx) => {
    for (const [given, missing] of [
      [first, second],
      [second, first],
    ] as const) {
      if (present(value[given]) && !present(value[missing])) {
        ctx.addIssue({
          code: 'custom',
          path: [missing],
          input: undefined,
          message: `${missing} is required when ${given} is given`,
          params: { code: 'missing-pair', hint: `add ${missing}, or remove ${given}` },
        });
      }
    }
  });
}

/** Ids that must be unique among the elements of an array field (payments, deliveries). */
export function uniqueIds(arrayField: string, what: string) {
  return objectCheck((value, ctx) => {
    const list = value[arrayField];
    if (!Array.isArray(list)) return;
    const seen = new Map<unknown, number>();
    list.forEach((element, position) => {
      if (!isRecord(element) || typeof element.id !== 'string') return;
      const first = seen.get(element.id);
      if (first === undefined) {
        seen.set(element.id, position);
        return;
      }
      ctx.addIssue({
        code: 'custom',
        path: [arrayField, position, 'id'],
        input: element.id,
        message: `${what} id "${element.id}" is used twice in this order (also at ${arrayField}.${first})`,
        params: { code: 'duplicate-id', hint: `give every ${what} of an order its own id` },
      });
    });
  });
}
