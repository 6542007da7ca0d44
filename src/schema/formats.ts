import * as z from 'zod';
import { DATETIME_PATTERN, datetimeProblem, datetimeSuggestion } from './datetime.js';

/** Attaches a stable code and a fix to a failed check; the zod-issue mapper reads them. */
function coded(
  code: string,
  test: (text: string) => boolean,
  message: string,
  hint: (text: string) => string,
) {
  return z.superRefine<string>((text, ctx) => {
    if (!test(text))
      ctx.addIssue({ code: 'custom', message, input: text, params: { code, hint: hint(text) } });
  });
}

export const nonEmptyString = z.string().min(1);

/**
 * The longest id collect takes where it keeps ids itself (decisions loaded into the state): no platform's id
 * is longer.
 */
export const MAX_ID_LENGTH = 255;

export const datetime = z
  .string()
  .check(
    z.superRefine<string>((text, ctx) => {
      const problem = datetimeProblem(text);
      if (problem === null) return;
      const suggestion = datetimeSuggestion(text);
      ctx.addIssue({
        code: 'custom',
        input: text,
        message:
          problem === 'format'
            ? 'must be a UTC datetime in the format YYYY-MM-DDTHH:mm:ssZ'
            : 'is not a real calendar instant',
        params: {
          code: 'invalid-datetime',
          hint:
            suggestion && problem === 'format'
              ? `write it as "${suggestion}"`
              : 'give a real UTC date and time, e.g. "2024-03-01T14:30:00Z"',
        },
      });
    }),
  )
  .meta({ format: 'date-time', pattern: DATETIME_PATTERN });

const isDigits = (text: string) => /^[0-9]+$/.test(text);

/** ASCII digits only (phone numbers of deliverers, country codes). */
export const digits = z
  .string()
  .check(
    coded('invalid-format', isDigits, 'must contain digits only', (t) => {
      const only = t.replace(/\D/g, '');
      return only ? `remove everything but the digits: "${only}"` : 'give digits only, e.g. "11987654321"';
    }),
  )
  .meta({ pattern: '^[0-9]+$' });

/** Exactly n digits (card number fragments). */
export function exactDigits(count: number, example: string) {
  const pattern = new RegExp(`^[0-9]{${count}}$`);
  return z
    .string()
    .check(
      coded(
        'invalid-format',
        (t) => pattern.test(t),
        `must be exactly ${count} digits`,
        () => `give exactly ${count} digits, e.g. "${example}"`,
      ),
    )
    .meta({ pattern: pattern.source });
}

const EXPIRATION = /^(0[1-9]|1[0-2])\/([0-9]{4}|[0-9]{2})$/;
export const expirationDate = z
  .string()
  .check(
    coded(
      'invalid-format',
      (t) => EXPIRATION.test(t),
      'must be MM/YYYY or MM/YY with a month from 01 to 12',
      () => 'write it as "08/2027" or "08/27"',
    ),
  )
  .meta({ pattern: EXPIRATION.source });

export const currency = z
  .string()
  .check(
    coded(
      'invalid-format',
      (t) => /^[A-Z]{3}$/.test(t),
      'must be three upper-case letters (ISO 4217)',
      (t) =>
        /^[a-zA-Z]{3}$/.test(t)
          ? `write it as "${t.toUpperCase()}"`
          : 'give an ISO 4217 code such as "BRL" or "USD"',
    ),
  )
  .meta({ pattern: '^[A-Z]{3}$' });

/** A JSON number, finite and >= 0. */
export const money = z.number().nonnegative();
export const positiveInteger = z.number().int().min(1);
export const latitude = z.number().min(-90).max(90);
export const longitude = z.number().min(-180).max(180);
export const stringArray = z.array(z.string());
/** Per-client custom data: a JSON object, never an array or a scalar. */
export const customData = z.record(z.string(), z.unknown());

export const documentType = z.enum(['cpf', 'cnpj', 'passport', 'rg', 'rne', 'other']);
export const gender = z.enum(['male', 'female', 'other', 'undisclosed']);
export const socialLogin = z.enum(['facebook', 'apple', 'google', 'twitter']);
export const userType = z.enum(['consumer', 'service_provider']);
export const orderStatus = z.enum([
  'approved',
  'declined',
  'pending',
  'cancelled',
  'manual_analysis',
  'unauthorized',
]);
