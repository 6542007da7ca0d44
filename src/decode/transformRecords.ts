import { UsageError } from '../core/errors.js';
import { error } from '../core/issue.js';
import { isRecord } from '../schema/checks.js';
import type { BuiltinSnapshot } from './builtinGuard.js';
import type { SourceRecord } from './sourceRecord.js';

/**
 * `--transform MODULE.js`'s default export: a record (and where it came from) to a record, several, or null
 * to drop it.
 */
export type RecordTransform = (
  record: Record<string, unknown>,
  location: { file: string; line: number | null; index: number | null },
) => unknown;

/** A loaded `--transform` module and the limits it runs under. */
export interface TransformHook {
  /** The module as given on the command line, named in every issue it causes. */
  module: string;
  run: RecordTransform;
  /** How long one record's call may take to settle (`--transform-timeout`). */
  timeoutMs: number;
  /** The built-in objects as they were before the module was loaded. */
  builtins: BuiltinSnapshot;
}

const TIMED_OUT = Symbol('timed out');
const ABORTED = Symbol('aborted');

/** A cause as one line of text, whatever it is (a Proxy, an object whose toString throws). */
function describe(cause: unknown): string {
  try {
    return (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]!.slice(0, 300);
  } catch {
    return 'a value that cannot be shown';
  }
}

/** The promise's value, or TIMED_OUT after `ms`, or ABORTED as soon as `signal` is (Ctrl-C stops waiting for it). */
function settleWithin(
  pending: PromiseLike<unknown>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const limit = new Promise((resolve) => {
    timer = setTimeout(resolve, ms, TIMED_OUT);
    onAbort = () => resolve(ABORTED);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([pending, limit]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}

/** The value as JSON data, or undefined when it is not (cyclic, a BigInt, a getter that throws). */
function plainCopy(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

type Called = { values: unknown[] } | { failure: string; hint: string };

/**
 * One call of the transform, its answer made plain JSON data: what collect checks and sends
 * is then what an NDJSON file would give it (no cycle, BigInt, getter or Proxy gets further).
 */
async function call(
  hook: TransformHook,
  record: SourceRecord,
  value: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<Called | typeof ABORTED> {
  const named = `--transform ${hook.module}`;
  let result: unknown;
  try {
    result = hook.run(value, { file: record.file, line: record.line, index: record.index });
    if (
      (typeof result === 'object' || typeof result === 'function') &&
      result !== null &&
      typeof (result as { then?: unknown }).then === 'function'
    ) {
      result = await settleWithin(result as PromiseLike<unknown>, hook.timeoutMs, signal);
    }
  } catch (cause) {
    return {
      failure: `${named} threw: ${describe(cause)}`,
      hint: 'fix the transform module for records like this one',
    };
  }
  if (result === ABORTED) return ABORTED;
  if (result === TIMED_OUT) {
    return {
      failure: `${named} did not settle within ${hook.timeoutMs} ms for this record`,
      hint: 'make it resolve or throw for records like this one, or allow it longer with --transform-timeout MS',
    };
  }
  if (result === null || result === undefined) return { values: [] };
  let plain: unknown;
  try {
    const text = JSON.stringify(result);
    plain = text === undefined ? undefined : JSON.parse(text);
  } catch (cause) {
    return {
      failure: `${named} returned something that is not JSON data: ${describe(cause)}`,
      hint: 'return plain objects: no cycles, and numbers or strings instead of BigInt',
    };
  }
  return { values: Array.isArray(plain) ? plain : [plain] };
}

/**
 * Records through a user's transform, for what a mapping cannot say. A throw, a promise that
 * does not settle in time, or a result that is not a record (or not JSON data) becomes an error
 * of that record, never a crash; the raw row stays for --rejects. A transform that changes the
 * built-in objects stops the run (exit 2): every object of collect would see the change. An
 * aborted `signal` (Ctrl-C) ends the records at once, even while a call is pending.
 */
export async function* transformRecords(
  records: AsyncIterable<SourceRecord>,
  hook: TransformHook,
  signal?: AbortSignal,
): AsyncGenerator<SourceRecord> {
  for await (const record of records) {
    if (!isRecord(record.value)) {
      yield record;
      continue;
    }
    const called = await call(hook, record, record.value, signal);
    if (called === ABORTED) return;
    const changed = hook.builtins.restoreChanges();
    if (changed !== undefined) {
      throw new UsageError(
        `--transform ${hook.module} changed JavaScript's built-in objects (${changed}) on ` +
          `${record.file}${record.line === null ? '' : `:${record.line}`}; collect stopped, nothing ` +
          `was sent`,
        'a transform must return new objects and leave Object.prototype and the other built-ins alone',
      );
    }
    if ('failure' in called) {
      // The transform may have made the record it was given cyclic, or worse: then it is kept by its raw row alone.
      const { value: _given, ...rest } = record;
      const value = plainCopy(record.value);
      yield {
        ...rest,
        ...(value === undefined ? {} : { value }),
        issues: [...record.issues, error('transform-failed', '', called.failure, { hint: called.hint })],
      };
      continue;
    }
    for (const value of called.values) {
      if (!isRecord(value)) {
        yield {
          ...record,
          issues: [
            ...record.issues,
            error(
              'transform-failed',
              '',
              `--transform ${hook.module} returned something that is not a record`,
              { hint: 'return an object, a list of objects, or null to drop the record' },
            ),
          ],
        };
        continue;
      }
      // The transform may add fields of its own: they get the full unknown-field check.
      const { fieldsChecked: _fields, checked: _checked, ...rest } = record;
      yield { ...rest, value };
    }
  }
}
