import { CollectError, isCollectError } from '../core/errors.js';
import { sqliteCodeOf } from '../platform/sqliteCodes.js';

/** The state cannot be read or written (damaged, full disk, no permission): exit 2, naming the file and what to do. */
export class StateError extends CollectError {
  constructor(message: string, hint: string) {
    super(message, 'state', 2, hint);
  }
}

const MOVE_ASIDE = (path: string) =>
  `move it aside (mv ${path} ${path}.broken) and run again, or restore it from a backup; a fresh state does not know what earlier runs sent, so what they sent is sent again`;

/** What a SQLite failure on the state file means for the user; undefined when it is not one. */
export function stateError(cause: unknown, path: string): StateError | undefined {
  const detail = sqliteCodeOf(cause);
  if (detail === undefined) return undefined;
  // Extended codes folded to their primary one (SQLITE_IOERR_WRITE -> SQLITE_IOERR).
  const code = detail.split('_').slice(0, 2).join('_');
  const io = (cause as Error).message ?? '';
  switch (code) {
    case 'SQLITE_CORRUPT':
      return new StateError(
        `the state file ${path} is damaged (${detail}): it may have been truncated or overwritten`,
        MOVE_ASIDE(path),
      );
    case 'SQLITE_NOTADB':
      return new StateError(
        `the state file ${path} is not a collect state (not an SQLite database)`,
        MOVE_ASIDE(path),
      );
    case 'SQLITE_FULL':
      return new StateError(
        `the disk holding ${path} is full: collect cannot write there`,
        'free space on that disk (or use --state on another one), then run the same command again: what was not saved is sent again',
      );
    case 'SQLITE_IOERR':
      return /disk is full|no space/i.test(io) || detail === 'SQLITE_IOERR_WRITE'
        ? new StateError(
            `cannot write the state file ${path} (${detail}): the disk may be full or failing`,
            'free space on that disk or use --state on another one, then run the same command again',
          )
        : new StateError(
            `cannot read or write the state file ${path} (${detail})`,
            'check the disk and the folder, or use another --state folder, then run the same command again',
          );
    case 'SQLITE_CANTOPEN':
      return new StateError(
        `cannot open the state file ${path}`,
        'check that its folder exists and that you may write to it, or choose another folder with --state DIR',
      );
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
    case 'SQLITE_AUTH':
      return new StateError(
        `the state file ${path} cannot be written (${detail})`,
        `make it and its folder writable (chmod u+w ${path}), or choose another folder with --state DIR`,
      );
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new StateError(
        `the state file ${path} is in use by another process (${detail})`,
        'wait for the other collect run to finish, or give this one another --state folder',
      );
    case 'SQLITE_NOMEM':
      return new StateError(
        `out of memory while using the state file ${path}`,
        'close other programs, or split the input and run each part',
      );
    default:
      // SQLITE_ERROR and the rest at open: a table or column missing, a schema this collect does not know.
      return new StateError(
        `the state file ${path} cannot be used (${detail}: ${io})`,
        `it may come from another version of collect: ${MOVE_ASIDE(path)}`,
      );
  }
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
