import { CollectError } from './errors.js';
import { exitCodes } from './exitCodes.js';

/**
 * The one classifier of operational failures: a full disk, a read-only file system, a permission,
 * a server that is down or unknown, a database that is missing, a refused login or privilege.
 * Each is something the user fixes, never a bug of collect: exit 2 with the cause and a fix.
 * It reads the codes the libraries set (errno, PostgreSQL's SQLSTATE, SQLite's result codes) and
 * never their prose, which only completes the message.
 */
export class OperationalError extends CollectError {
  constructor(
    message: string,
    hint: string,
    /** What kind of fault: `disk-full`, `read-only`, `permission`, `unreachable`, `unknown-host`, ... */
    readonly kind: string,
  ) {
    super(message, kind, exitCodes.usage, hint);
  }
}

/** What a failure is about, in words ("the state file /x/y.sqlite", "the outbox postgres://app@db/shop"). */
export interface Subject {
  /** Names the thing for a message; without it the error's own path or address is named. */
  name?: string;
  /** The file, for a fix that names it (mv, chmod). */
  path?: string;
}

interface Diagnosis {
  kind: string;
  message: string;
  hint: string;
}

const RUN_AGAIN = 'then run the same command again: what was not saved is done again';

/** The fields the libraries put on their errors; all optional, all read with care. */
interface ErrorFields {
  code?: unknown;
  errno?: unknown;
  errcode?: unknown;
  errstr?: unknown;
  severity?: unknown;
  path?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
  message?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const fieldsOf = (cause: unknown): ErrorFields =>
  cause !== null && typeof cause === 'object' ? (cause as ErrorFields) : {};

// ---- errno (node's fs and net) ----

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
const UNREACHABLE = new Set(['ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);

function systemDiagnosis(code: string, fields: ErrorFields, subject: Subject): Diagnosis | undefined {
  const path = text(fields.path);
  const named = subject.name ?? (path === undefined ? 'a file collect writes' : path);
  const peer =
    subject.name ??
    (text(fields.address) === undefined
      ? 'the server'
      : `${text(fields.address)}${fields.port === undefined ? '' : `:${String(fields.port)}`}`);
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return {
      kind: 'disk-full',
      message: `no space left on the disk holding ${named} (${code})`,
      hint: `free space on that disk (or write to another disk), ${RUN_AGAIN}`,
    };
  if (code === 'EROFS')
    return {
      kind: 'read-only',
      message: `${named} is on a read-only file system (EROFS)`,
      hint: 'choose a folder on a writable disk (--state DIR, the output file), or remount that one read-write',
    };
  if (code === 'EACCES' || code === 'EPERM') {
    if (text(fields.syscall) === 'listen')
      return {
        kind: 'permission',
        message: `cannot listen on port ${String(fields.port ?? '')}: permission denied (${code})`,
        hint: 'choose a port above 1023 (--port), or 0 for any free port',
      };
    return {
      kind: 'permission',
      message: `permission denied on ${named} (${code})`,
      hint:
        'give your user the right to read and write it and its folder (ls -ld, chmod u+rw), or ' +
        'choose another folder',
    };
  }
  if (code === 'ECONNREFUSED')
    return {
      kind: 'unreachable',
      message: `nothing answers at ${peer} (connection refused, ECONNREFUSED)`,
      hint: 'check that the server is running and that the URL names its host and port',
    };
  if (DNS.has(code))
    return {
      kind: 'unknown-host',
      message: `the host ${subject.name ?? text(fields.hostname) ?? 'of the URL'} cannot be found (${code})`,
      hint: 'check the host name in the URL, and the network (DNS)',
    };
  if (UNREACHABLE.has(code))
    return {
      kind: 'unreachable',
      message: `${peer} cannot be reached (${code})`,
      hint: 'check the network, a firewall, and the host and port in the URL',
    };
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return {
      kind: 'unreachable',
      message: `${peer} closed the connection (${code})`,
      hint: 'check the server and its log, then run the same command again: what was not saved is done again',
    };
  if (code === 'EMFILE' || code === 'ENFILE')
    return {
      kind: 'resources',
      message: `too many open files (${code})`,
      hint: 'raise the limit of open files (ulimit -n 4096), or read fewer files at once',
    };
  return undefined;
}

// ---- PostgreSQL (SQLSTATE of a server's error) ----

const SQLSTATE = /^[0-9A-Z]{5}$/;

function postgresDiagnosis(code: string, fields: ErrorFields, subject: Subject): Diagnosis | undefined {
  const said = text(fields.message) ?? code;
  const at = subject.name === undefined ? '' : ` ${subject.name}`;
  const diagnosis = (kind: string, message: string, hint: string): Diagnosis => ({ kind, message, hint });
  switch (code) {
    case '3D000':
      return diagnosis(
        'unknown-database',
        `cannot use the database${at}: ${said} (3D000)`,
        'check the database name at the end of the URL, or create it (createdb NAME)',
      );
    case '28P01':
      return diagnosis(
        'authentication',
        `cannot log in to the database${at}: ${said} (28P01)`,
        'check the password of that user (in the URL, PGPASSWORD or ~/.pgpass)',
      );
    case '28000':
      return diagnosis(
        'authentication',
        `cannot log in to the database${at}: ${said} (28000)`,
        'check the user name in the URL, and that the server lets it log in from this host (pg_hba.conf)',
      );
    case '42501':
      return diagnosis(
        'privilege',
        `the database user lacks a right${at === '' ? '' : ` on${at}`}: ${said} (42501)`,
        "have the database's owner grant it (GRANT ... TO that user), or use a user that has it",
      );
    case '53100':
      return diagnosis(
        'disk-full',
        `the database server's disk is full${at === '' ? '' : ` (${subject.name})`}: ${said} (53100)`,
        `free space on the database server, ${RUN_AGAIN}`,
      );
    case '53300':
      return diagnosis(
        'unreachable',
        `the database server${at} refuses more connections: ${said} (53300)`,
        'lower --concurrency or the number of runs at once, or raise max_connections',
      );
    case '25006':
      return diagnosis(
        'read-only',
        `the database${at} is read-only: ${said} (25006)`,
        'point the URL at the primary server, not a standby',
      );
    case '57P03':
      return diagnosis(
        'unreachable',
        `the database server${at} does not accept connections now: ${said} (57P03)`,
        'run the same command again once it is up',
      );
    default:
      if (code.startsWith('08'))
        return diagnosis(
          'unreachable',
          `cannot talk to the database${at}: ${said} (${code})`,
          'check the server, the network, and the URL',
        );
      return undefined;
  }
}

// ---- SQLite (result codes; better-sqlite3 names them, node:sqlite numbers them) ----

/** SQLite's primary result codes by number (node:sqlite's `errcode`; the extended code's low byte). */
const SQLITE_NAMES: Record<number, string> = {
  3: 'SQLITE_PERM',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  23: 'SQLITE_AUTH',
  26: 'SQLITE_NOTADB',
};

/** The SQLite result code of an error, as [primary, as the library gave it]; undefined when it is not one. */
export function sqliteCode(cause: unknown): [string, string] | undefined {
  const fields = fieldsOf(cause);
  const code = text(fields.code);
  if (code?.startsWith('SQLITE_')) return [code.split('_').slice(0, 2).join('_'), code];
  if (code === 'ERR_SQLITE_ERROR' && typeof fields.errcode === 'number') {
    const primary = SQLITE_NAMES[fields.errcode & 0xff] ?? `SQLITE_ERROR_${fields.errcode & 0xff}`;
    return [primary, `${primary} ${fields.errcode}`];
  }
  return undefined;
}

const MOVE_ASIDE = (path: string | undefined) =>
  `restore it from a backup, or move it aside (` +
  `${path === undefined ? 'mv FILE FILE.broken' : `mv ${path} ${path}.broken`}) and run again: a ` +
  `fresh state does not know what earlier runs sent, so what they sent is sent again`;

function sqliteDiagnosis(primary: string, detail: string, fields: ErrorFields, subject: Subject) {
  const named = subject.name ?? 'the state file';
  const path = subject.path;
  const said = text(fields.message) ?? text(fields.errstr) ?? '';
  switch (primary) {
    case 'SQLITE_CORRUPT':
      return {
        kind: 'damaged',
        message: `${named} is damaged (${detail}): it may have been truncated or overwritten`,
        hint: MOVE_ASIDE(path),
      };
    case 'SQLITE_NOTADB':
      return {
        kind: 'damaged',
        message: `${named} is not a collect state (not an SQLite database)`,
        hint: MOVE_ASIDE(path),
      };
    case 'SQLITE_FULL':
      return {
        kind: 'disk-full',
        message: `the disk holding ${named} is full (${detail}): collect cannot write there`,
        hint: `free space on that disk (or use --state on another one), ${RUN_AGAIN}`,
      };
    case 'SQLITE_IOERR':
      return /disk is full|no space/i.test(said) || /WRITE|FSYNC|SHMSIZE|TRUNCATE/.test(detail)
        ? {
            kind: 'disk-full',
            message: `cannot write ${named} (${detail}): the disk may be full or failing`,
            hint: `free space on that disk or use --state on another one, ${RUN_AGAIN}`,
          }
        : {
            kind: 'io',
            message: `cannot read or write ${named} (${detail})`,
            hint: `check the disk and the folder, or use another --state folder, ${RUN_AGAIN}`,
          };
    case 'SQLITE_CANTOPEN':
      return {
        kind: 'permission',
        message: `cannot open ${named} (${detail})`,
        hint:
          'check that its folder exists, is on a writable disk and that you may write to it, or ' +
          'choose another folder with --state DIR',
      };
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
    case 'SQLITE_AUTH':
      return {
        kind: 'read-only',
        message: `${named} cannot be written (${detail}): the file, its folder or its disk is read-only`,
        hint:
          `make it and its folder writable${path === undefined ? '' : ` (chmod u+w ${path})`}, or ` +
          `choose a folder on a writable disk with --state DIR`,
      };
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return {
        kind: 'busy',
        message: `${named} is in use by another process (${detail})`,
        hint: 'wait for the other collect run to finish, or give this one another --state folder',
      };
    case 'SQLITE_NOMEM':
      return {
        kind: 'memory',
        message: `out of memory while using ${named}`,
        hint: 'close other programs, or split the input and run each part',
      };
    default:
      // SQLITE_ERROR and the rest may be a statement of collect's own that is wrong: not the user's to fix.
      return undefined;
  }
}

/**
 * The cause and fix of an operational failure, or undefined when `cause` is not one (a bug stays a
 * bug: exit 70). `subject` names what failed when the caller knows it; messages never hold a URL's
 * password (callers pass masked names; pg's and SQLite's messages hold none).
 */
export function diagnose(cause: unknown, subject: Subject = {}): Diagnosis | undefined {
  const fields = fieldsOf(cause);
  const sqlite = sqliteCode(cause);
  if (sqlite) return sqliteDiagnosis(sqlite[0], sqlite[1], fields, subject);
  const code = text(fields.code);
  if (code === undefined) return undefined;
  // A PostgreSQL server's error carries its severity beside the SQLSTATE.
  if (SQLSTATE.test(code) && fields.severity !== undefined) return postgresDiagnosis(code, fields, subject);
  if (/^E[A-Z_]+$/.test(code)) return systemDiagnosis(code, fields, subject);
  return undefined;
}

/** `cause` as an OperationalError (exit 2, its cause and a fix), or undefined when it is not one. */
export function operationalError(cause: unknown, subject: Subject = {}): OperationalError | undefined {
  const diagnosis = diagnose(cause, subject);
  return diagnosis && new OperationalError(diagnosis.message, diagnosis.hint, diagnosis.kind);
}

/**
 * A file a command writes (`flag` names it: --report FILE) could not be written: its cause and fix, or a
 * plain usage error.
 */
export function outputFileError(flag: string, file: string, cause: unknown): CollectError {
  const named = `${flag} ${file}`;
  return (
    operationalError(cause, { name: named, path: file }) ??
    new CollectError(
      `${named}: cannot be written (${text(fieldsOf(cause).code) ?? String(cause)})`,
      'usage',
      exitCodes.usage,
      'give a path in a folder that exists and that you may write to',
    )
  );
}
