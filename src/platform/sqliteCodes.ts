/** Words of a list, one space or line apart. */
const names = (text: string): readonly string[] => text.trim().split(/\s+/);

/** SQLite's primary result codes by number (sqlite3.h), named as SQLite names them. */
const PRIMARY = names(`
  OK ERROR INTERNAL PERM ABORT BUSY LOCKED NOMEM READONLY INTERRUPT IOERR CORRUPT NOTFOUND FULL CANTOPEN
  PROTOCOL EMPTY SCHEMA TOOBIG CONSTRAINT MISMATCH MISUSE NOLFS AUTH FORMAT RANGE NOTADB NOTICE WARNING`);

/** The extended codes, by primary code: the name of (primary | n << 8) is the n-th (from 1); '-' none. */
const EXTENDED: Record<string, readonly string[]> = {
  ERROR: names('MISSING_COLLSEQ RETRY SNAPSHOT'),
  IOERR: names(`
    READ SHORT_READ WRITE FSYNC DIR_FSYNC TRUNCATE FSTAT UNLOCK RDLOCK DELETE BLOCKED NOMEM ACCESS
    CHECKRESERVEDLOCK LOCK CLOSE DIR_CLOSE SHMOPEN SHMSIZE SHMLOCK SHMMAP SEEK DELETE_NOENT MMAP GETTEMPPATH
    CONVPATH VNODE AUTH BEGIN_ATOMIC COMMIT_ATOMIC ROLLBACK_ATOMIC DATA CORRUPTFS IN_PAGE`),
  LOCKED: names('SHAREDCACHE VTAB'),
  BUSY: names('RECOVERY SNAPSHOT TIMEOUT'),
  CANTOPEN: names('NOTEMPDIR ISDIR FULLPATH CONVPATH DIRTYWAL SYMLINK'),
  CORRUPT: names('VTAB SEQUENCE INDEX'),
  READONLY: names('RECOVERY CANTLOCK ROLLBACK DBMOVED CANTINIT DIRECTORY'),
  ABORT: names('- ROLLBACK'),
  CONSTRAINT: names(`
    CHECK COMMITHOOK FOREIGNKEY FUNCTION NOTNULL PRIMARYKEY TRIGGER UNIQUE VTAB ROWID PINNED DATATYPE`),
  NOTICE: names('RECOVER_WAL RECOVER_ROLLBACK RBU'),
  WARNING: names('AUTOINDEX'),
  AUTH: names('USER'),
};

/**
 * The name of a SQLite result code, as better-sqlite3 gave it in `code` (SQLITE_BUSY_SNAPSHOT):
 * node:sqlite gives only its number (`errcode`, the extended code).
 */
export function sqliteCodeName(errcode: number): string {
  const primary = PRIMARY[errcode & 0xff] ?? String(errcode & 0xff);
  const extended = EXTENDED[primary]?.[(errcode >> 8) - 1];
  return extended !== undefined && extended !== '-' ? `SQLITE_${primary}_${extended}` : `SQLITE_${primary}`;
}

/** The SQLite result code of a failure, named (SQLITE_FULL): node:sqlite's `errcode`, or a `code` already named. */
export function sqliteCodeOf(cause: unknown): string | undefined {
  const { code, errcode } = (cause ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return sqliteCodeName(errcode);
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}
