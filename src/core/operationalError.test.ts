import { describe, expect, it } from 'vitest';
import { operationalError, sqliteCode } from './operationalError.js';

/** An error as node's fs and net make them. */
const errno = (code: string, fields: object = {}) =>
  Object.assign(new Error(`${code}: something`), { code, ...fields });
/** An error as node-postgres makes a server's. */
const pgError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('operationalError', () => {
  it.each([
    [errno('ENOSPC', { path: '/d/x' }), 'disk-full', 'no space left on the disk holding /d/x', 'free space'],
    [errno('EROFS', { path: '/d/x' }), 'read-only', '/d/x is on a read-only file system', 'writable disk'],
    [errno('EACCES', { path: '/d/x' }), 'permission', 'permission denied on /d/x', 'chmod'],
    [
      errno('EACCES', { syscall: 'listen', port: 80 }),
      'permission',
      'cannot listen on port 80',
      'above 1023',
    ],
    [
      errno('ECONNREFUSED', { address: '127.0.0.1', port: 1 }),
      'unreachable',
      'nothing answers at 127.0.0.1:1',
      'server is running',
    ],
    [errno('ENOTFOUND', { hostname: 'db.invalid' }), 'unknown-host', 'the host db.invalid', 'host name'],
    [
      pgError('3D000', 'database "shop" does not exist'),
      'unknown-database',
      '"shop" does not exist',
      'createdb',
    ],
    [
      pgError('28P01', 'password authentication failed for user "app"'),
      'authentication',
      'log in',
      'password',
    ],
    [pgError('28000', 'role "app" does not exist'), 'authentication', 'role "app"', 'pg_hba.conf'],
    [
      pgError('42501', 'permission denied for table t'),
      'privilege',
      'permission denied for table t',
      'GRANT',
    ],
    [pgError('53100', 'could not extend file'), 'disk-full', "database server's disk is full", 'free space'],
    [
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      'disk-full',
      'full',
      'free',
    ],
    [
      Object.assign(new Error('x'), { code: 'SQLITE_READONLY_DBMOVED' }),
      'read-only',
      'cannot be written',
      'writable',
    ],
    [Object.assign(new Error('x'), { code: 'SQLITE_CANTOPEN' }), 'permission', 'cannot open', '--state DIR'],
  ])('%s: exit 2, its kind, the cause and a fix', (cause, kind, message, hint) => {
    const error = operationalError(cause)!;
    expect(error.exitCode).toBe(2);
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(message);
    expect(error.hint).toContain(hint);
  });

  it('names the subject the caller gives, and the file in a fix', () => {
    const error = operationalError(Object.assign(new Error('x'), { code: 'SQLITE_READONLY' }), {
      name: 'the state file /s/x.sqlite',
      path: '/s/x.sqlite',
    })!;
    expect(error.message).toContain('the state file /s/x.sqlite cannot be written');
    expect(error.hint).toContain('chmod u+w /s/x.sqlite');
  });

  it("reads node:sqlite's numbered result codes as better-sqlite3's named ones", () => {
    const full = Object.assign(new Error('database or disk is full'), {
      code: 'ERR_SQLITE_ERROR',
      errcode: 13,
      errstr: 'database or disk is full',
    });
    expect(sqliteCode(full)?.[0]).toBe('SQLITE_FULL');
    expect(operationalError(full)?.kind).toBe('disk-full');
    expect(sqliteCode({ code: 'ERR_SQLITE_ERROR', errcode: 778 })?.[0]).toBe('SQLITE_IOERR'); // SQLITE_IOERR_WRITE
  });

  it('leaves a bug a bug: no code, an unknown one, a statement SQLite refuses', () => {
    expect(operationalError(new TypeError('x is not a function'))).toBeUndefined();
    expect(operationalError(errno('ERR_INVALID_ARG_TYPE'))).toBeUndefined();
    expect(operationalError(errno('ENOENT', { path: '/x' }))).toBeUndefined();
    expect(
      operationalError(Object.assign(new Error('no such table'), { code: 'SQLITE_ERROR' })),
    ).toBeUndefined();
    expect(operationalError(pgError('42P01', 'relation "t" does not exist'))).toBeUndefined();
    // no severity: not a server's
    expect(operationalError(Object.assign(new Error('x'), { code: '3D000' }))).toBeUndefined();
    expect(operationalError(null)).toBeUndefined();
  });
});
