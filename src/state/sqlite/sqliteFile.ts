import { randomUUID } from 'node:crypto';
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { openDatabase, pragmaValue, transaction, type Database } from '../../platform/sqlite.js';
import { isCollectError, UsageError } from '../../core/errors.js';
import { guardDatabase, StateError, stateError } from '../stateErrors.js';
import { sqliteCoreSql } from './coreSql.js';
import { SCHEMA_VERSION, upgrades } from './upgrades.js';

/** What to do with a state that cannot be used, as stateErrors.ts says it. */
const moveAside = (path: string) =>
  `move it aside (mv ${path} ${path}.broken) and run again, or restore it from a backup; a fresh ` +
  `state does not know what earlier runs sent, so what they sent is sent again`;

/** Makes the state folder, private to its user (0700): the state holds customers' and payments' data. */
export function privateFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = statSync(dir);
    if ((info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) chmodSync(dir, 0o700);
  } catch (cause) {
    throw new UsageError(
      `--state ${dir}: cannot create the folder (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      'choose a writable folder with --state DIR',
    );
  }
}

/**
 * Refuses an empty state file with no WAL beside it: SQLite would take it for a new database and
 * the run would forget what earlier runs sent, and collect never leaves one.
 */
function refuseEmpty(path: string, size: number): void {
  if (size > 0 || (statOrNull(`${path}-wal`)?.size ?? 0) > 0) return;
  throw new StateError(
    `the state file ${path} is an empty file (0 bytes): collect never leaves one, so it was truncated or replaced`,
    moveAside(path),
  );
}

/**
 * SQLite's own verdict on the whole state, its WAL included (an interrupted checkpoint leaves the
 * main file short and the pages in the WAL, which is whole): quick_check reads every page.
 */
function checkWhole(db: Database, path: string): void {
  const problems = db.prepare('PRAGMA quick_check(3)').all() as { quick_check: string }[];
  const said = problems.map((row) => row.quick_check);
  if (said.length === 1 && said[0] === 'ok') return;
  throw new StateError(
    `the state file ${path} is damaged: SQLite's check finds ${said.join('; ')}`,
    moveAside(path),
  );
}

/**
 * Makes a new state's tables as declared, or brings an older one up to date, in one transaction that
 * waits for any other writer (so two first runs cannot both do it).
 */
function migrate(db: Database, path: string): void {
  const steps = () => {
    const version = pragmaValue(db, 'user_version') as number;
    if (version > SCHEMA_VERSION) {
      throw new StateError(
        `the state file ${path} was written by a newer collect (schema ${version}); this one knows ` +
          `schema ${SCHEMA_VERSION}`,
        'upgrade collect, or use another --state',
      );
    }
    if (version === 0) db.exec(sqliteCoreSql());
    else upgrades.slice(version - 1).forEach((step) => db.exec(step));
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  };
  transaction(db, steps, 'immediate');
}

/**
 * A new state, built aside and linked into place whole: no run ever sees it half made, and two first
 * runs cannot both create it. It is born in WAL mode: switching a linked file needs it alone, and two
 * first runs switching it at once made one fail (SQLITE_BUSY, exit 2).
 */
export function createStateFile(path: string): void {
  const aside = `${path}.${process.pid}-${randomUUID().slice(0, 8)}.new`;
  closeSync(openSync(aside, 'wx', 0o600));
  try {
    const db = openDatabase(aside);
    try {
      db.exec('PRAGMA journal_mode = WAL');
      migrate(db, aside);
    } finally {
      db.close();
    }
    linkSync(aside, path);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'EEXIST') throw cause;
  } finally {
    unlinkSync(aside);
  }
}

/** SQLite's own verdicts on a file, in a user's words (stateErrors.ts). */
function explain(cause: unknown, path: string): unknown {
  return isCollectError(cause) ? cause : (stateError(cause, path) ?? cause);
}

/**
 * Opens the SQLite file of a state (`null`: in memory), creating it whole and private (0600)
 * when missing, refusing it when it is empty, corrupt, truncated or from a newer collect.
 * `use` runs on the open database, and its SQLite errors are explained the same way.
 */
export function openStateFile<T>(
  path: string | null,
  use: (db: Database) => T,
): { db: Database; raw: Database; value: T } {
  let raw: Database | undefined;
  try {
    if (path !== null) {
      let info = statOrNull(path);
      if (!info) createStateFile(path);
      info = statOrNull(path)!;
      refuseEmpty(path, info.size);
      // A state written by an older collect (0644) is made private too, when this user owns it.
      if ((info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) chmodSync(path, 0o600);
    }
    raw = openDatabase(path ?? ':memory:');
    raw.exec('PRAGMA busy_timeout = 5000');
    raw.exec('PRAGMA journal_mode = WAL');
    raw.exec('PRAGMA synchronous = NORMAL');
    raw.exec('PRAGMA cache_size = -16384');
    if (path !== null) checkWhole(raw, path);
    migrate(raw, path ?? ':memory:');
  } catch (cause) {
    raw?.close();
    throw explain(cause, path ?? ':memory:');
  }
  const opened = raw;
  // Every later read, write and commit turns a SQLite failure into a StateError naming the file.
  const db = path === null ? opened : guardDatabase(path, () => opened);
  try {
    return { db, raw: opened, value: use(db) };
  } catch (cause) {
    opened.close();
    throw cause;
  }
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StateError(
      `the state ${path} cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      'check the permissions of the file and its folder',
    );
  }
}
