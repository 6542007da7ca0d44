import { CollectError, isCollectError } from '../core/errors.js';
import { diagnose, sqliteCode } from '../core/operationalError.js';
import { sqliteCodeOf } from '../platform/sqliteCodes.js';

/** The state cannot be read or written (damaged, full disk, no permission): exit 2, naming the file and what to do. */
export class StateError extends CollectError {
  constructor(message: string, hint: string) {
    super(message, 'state', 2, hint);
  }
}

/**
 * What a SQLite failure on the state file means for the user (core/operationalError.ts); undefined when it is
 * not one.
 */
export function stateError(cause: unknown, path: string): StateError | undefined {
  // node:sqlite gives a number; its name (SQLITE_IOERR_WRITE) is what the user and the classifier read.
  const name = sqliteCodeOf(cause);
  const named = name === undefined ? cause : { code: name, message: (cause as Error).message };
  const code = sqliteCode(named);
  if (code === undefined) return undefined;
  const known = diagnose(named, { name: `the state file ${path}`, path });
  if (known) return new StateError(known.message, known.hint);
  // SQLITE_ERROR and the rest at open: a table or column missing, a schema this collect does not know.
  return new StateError(
    `the state file ${path} cannot be used (${code[1]}: ${(cause as Error).message ?? ''})`,
    `it may come from another version of collect: move it aside (mv ${path} ${path}.broken) and ` +
      `run again, or restore it from a backup; a fresh state does not know what earlier runs sent, so ` +
      `what they sent is sent again`,
  );
}

/** What a failed state operation throws: a SQLite failure as a StateError naming the file, anything else as it was. */
function asStateError(cause: unknown, path: string): unknown {
  return isCollectError(cause) ? cause : (stateError(cause, path) ?? cause);
}

/** Runs one state operation; a SQLite failure comes out as a StateError naming the file. */
export function guardState<T>(path: string, operation: () => T): T {
  try {
    return operation();
  } catch (cause) {
    throw asStateError(cause, path);
  }
}

/** A statement's rows read one by one (iterate()), each step guarded; stopping early releases the statement. */
function* guardedRows(rows: Iterator<unknown>, path: string): Generator<unknown> {
  try {
    for (;;) {
      let step: IteratorResult<unknown>;
      try {
        step = rows.next();
      } catch (cause) {
        throw asStateError(cause, path);
      }
      if (step.done === true) return;
      yield step.value;
    }
  } finally {
    rows.return?.();
  }
}

/** An object whose every method call is guarded; what they return (statements, transactions) is guarded in turn. */
function guarded<T extends object>(target: T, path: string): T {
  const call = (fn: (...a: unknown[]) => unknown, self: unknown, args: unknown[]): unknown => {
    let result: unknown;
    try {
      result = fn.apply(self, args);
    } catch (cause) {
      throw asStateError(cause, path);
    }
    if (typeof result === 'function')
      return (...inner: unknown[]) => call(result as (...a: unknown[]) => unknown, undefined, inner);
    if (result !== null && typeof result === 'object') {
      if (typeof (result as { run?: unknown }).run === 'function') return guarded(result, path);
      if (typeof (result as { next?: unknown }).next === 'function')
        return guardedRows(result as Iterator<unknown>, path);
    }
    return result;
  };
  // One wrapper per method, made on first use: a statement's run() is called millions of times in a backfill.
  const wrappers = new Map<PropertyKey, { method: unknown; wrapper: (...args: unknown[]) => unknown }>();
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object) as unknown;
      if (typeof value !== 'function') return value;
      const known = wrappers.get(property);
      if (known?.method === value) return known.wrapper;
      const wrapper = (...args: unknown[]) => call(value as (...a: unknown[]) => unknown, object, args);
      wrappers.set(property, { method: value, wrapper });
      return wrapper;
    },
  });
}

/**
 * Opens the state and guards everything done with it afterwards: opening, each read and write,
 * each commit and the close turn SQLite failures into a StateError naming the file.
 */
export function guardDatabase<T extends object>(path: string, open: () => T): T {
  return guarded(guardState(path, open), path);
}
