import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { DatabaseSync as Sqlite } from './nodeSqlite.js';

/** A connection and a prepared statement of node:sqlite, built into Node 22.13+: nothing to compile. */
export type Database = DatabaseSync;
export type Statement = StatementSync;
export type { SQLInputValue };

/** Opens (creating unless read-only) the SQLite file at `path`, or `:memory:`; a read-only open needs the file. */
export function openDatabase(path: string, options: { readOnly?: boolean } = {}): Database {
  return new Sqlite(path, { readOnly: options.readOnly === true });
}

/** The value of a pragma that answers one (`user_version`, `journal_mode`): its first column. */
export function pragmaValue(db: Database, pragma: string): unknown {
  const row = db.prepare(`PRAGMA ${pragma}`).get();
  return row === undefined ? undefined : Object.values(row)[0];
}

/** A statement's rows as arrays (`Row`: what the caller knows its columns hold), in the order of its columns. */
export interface ArrayStatement<Row extends unknown[] = unknown[]> {
  all(...params: SQLInputValue[]): Row[];
  get(...params: SQLInputValue[]): Row | undefined;
  iterate(...params: SQLInputValue[]): IterableIterator<Row>;
}

/**
 * The statement answering arrays. Node 22.13-22.15 lack setReturnArrays: there each row object's
 * values are taken, in column order as long as no column is named like an integer (JS orders those first).
 */
export function arrays<Row extends unknown[] = unknown[]>(statement: Statement): ArrayStatement<Row> {
  if (typeof statement.setReturnArrays === 'function') {
    statement.setReturnArrays(true);
    return statement as unknown as ArrayStatement<Row>;
  }
  const values = (row: object) => Object.values(row) as Row;
  return {
    all: (...params) => statement.all(...params).map(values),
    get: (...params) => {
      const row = statement.get(...params);
      return row === undefined ? undefined : values(row);
    },
    *iterate(...params) {
      for (const row of statement.iterate(...params)) yield values(row);
    },
  };
}

/** BEGIN, COMMIT and ROLLBACK prepared once per connection: a sending run commits thousands of times. */
const controls = new WeakMap<Database, Record<'deferred' | 'immediate' | 'commit' | 'rollback', Statement>>();

/**
 * Runs `body` in one transaction, committed when it returns and rolled back when it throws (a failed
 * COMMIT too). IMMEDIATE takes the write lock at BEGIN, waiting as the busy timeout says: a deferred
 * transaction that has read cannot write once another connection committed (SQLITE_BUSY at once).
 */
export function transaction<T>(db: Database, body: () => T, mode: 'deferred' | 'immediate' = 'deferred'): T {
  let control = controls.get(db);
  if (!control) {
    control = {
      deferred: db.prepare('BEGIN'),
      immediate: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
    controls.set(db, control);
  }
  control[mode].run();
  try {
    const result = body();
    control.commit.run();
    return result;
  } catch (cause) {
    try {
      control.rollback.run();
    } catch {
      // No transaction left: SQLite ended it itself (a full disk, an I/O error).
    }
    throw cause;
  }
}
