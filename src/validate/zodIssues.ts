import type * as z from 'zod';
import { error, pathToString, type Issue } from '../core/issue.js';
import { closest, shorten } from '../core/suggest.js';

type ZodIssue = z.core.$ZodIssue;

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  // JSON would print it as null
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${String(value)}`;
  return `${typeof value} ${shorten(value)}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  record: 'a JSON object',
};

function typeHint(expected: string, input: unknown): string | undefined {
  if (expected === 'string' && (typeof input === 'number' || typeof input === 'boolean'))
    return `write it as a string: "${String(input)}"`;
  if (
    (expected === 'number' || expected === 'int') &&
    typeof input === 'string' &&
    /^-?\d+(\.\d+)?$/.test(input.trim())
  )
    return `write it as a JSON number: ${input.trim()}`;
  if (expected === 'boolean' && typeof input === 'string') return 'write true or false without quotes';
  if (expected === 'record') return 'give a JSON object such as {"channel": "app"}';
  return undefined;
}

function withHint(issue: Issue, hint: string | undefined): Issue {
  return hint === undefined ? issue : { ...issue, hint };
}

/** Turns one zod issue into a `collect` issue with a stable code, a plain message and a fix. */
export function fromZodIssue(raw: ZodIssue): Issue {
  const path = pathToString(raw.path);
  const field = path === '' ? 'the record' : (raw.path[raw.path.length - 1] as string | number).toString();
  const input = (raw as { input?: unknown }).input;
  const value = input === undefined ? {} : { value: input };
  if (input === undefined && (raw.code === 'invalid_type' || raw.code === 'invalid_value')) {
    return error('required', path, `${field} is required`, { hint: `add ${field}` });
  }
  switch (raw.code) {
    case 'invalid_type': {
      const expected = EXPECTED[raw.expected] ?? raw.expected;
      return withHint(
        error('invalid-type', path, `${field} must be ${expected}, not ${describeValue(input)}`, value),
        typeHint(raw.expected, input),
      );
    }
    case 'invalid_value': {
      const options = raw.values.map(String);
      const guess = typeof input === 'string' ? closest(input, options) : undefined;
      return error('invalid-enum', path, `${field} must be one of: ${options.join(', ')}`, {
        ...value,
        hint: guess ? `did you mean "${guess}"?` : `use one of: ${options.join(', ')}`,
      });
    }
    case 'too_small':
      if (raw.origin === 'string' && raw.minimum === 1)
        return error('empty-value', path, `${field} must not be empty`, {
          ...value,
          hint: `give ${field} a value, or leave the field out if it is optional`,
        });
      return error(
        'out-of-range',
        path,
        `${field} must be ${raw.inclusive ? 'at least' : 'more than'} ${String(raw.minimum)}`,
        { ...value, hint: `give a value of at least ${String(raw.minimum)}` },
      );
    case 'too_big':
      return error(
        'out-of-range',
        path,
        `${field} must be ${raw.inclusive ? 'at most' : 'less than'} ${String(raw.maximum)}`,
        { ...value, hint: `give a value of at most ${String(raw.maximum)}` },
      );
    case 'custom': {
      const params = (raw.params ?? {}) as { code?: string; hint?: string };
      // Format checks say "must be ..."; name the field so the message stands alone.
      const message = /^(must|is) /.test(raw.message) ? `${field} ${raw.message}` : raw.message;
      return withHint(error(params.code ?? 'invalid-value', path, message, value), params.hint);
    }
    case 'invalid_format':
      return error('invalid-format', path, `${field} has the wrong format`, value);
    default:
      return error('invalid-value', path, raw.message, value);
  }
}

export function fromZodError(issues: readonly ZodIssue[]): Issue[] {
  return issues.map(fromZodIssue);
}

/** A "required" error gives way to a more specific error on the same field (a missing pair, a misnamed field). */
export function preferSpecific(issues: Issue[]): Issue[] {
  const specific = new Set(
    issues
      .filter((issue) => issue.severity === 'error' && issue.code !== 'required')
      .map((issue) => issue.path),
  );
  return issues.filter((issue) => issue.code !== 'required' || !specific.has(issue.path));
}
