import { describe, expect, it } from 'vitest';
import { sqliteCodeName, sqliteCodeOf } from './sqliteCodes.js';

describe('sqliteCodeName', () => {
  it.each([
    [5, 'SQLITE_BUSY'],
    [5 | (2 << 8), 'SQLITE_BUSY_SNAPSHOT'],
    [10 | (3 << 8), 'SQLITE_IOERR_WRITE'],
    [10 | (34 << 8), 'SQLITE_IOERR_IN_PAGE'],
    [11 | (3 << 8), 'SQLITE_CORRUPT_INDEX'],
    [4 | (2 << 8), 'SQLITE_ABORT_ROLLBACK'],
    [13, 'SQLITE_FULL'],
    [26, 'SQLITE_NOTADB'],
    [28, 'SQLITE_WARNING'],
    // An extended code this list does not know yet reads as its primary one.
    [10 | (99 << 8), 'SQLITE_IOERR'],
  ])('%i is %s', (errcode, name) => {
    expect(sqliteCodeName(errcode)).toBe(name);
  });
});

describe('sqliteCodeOf', () => {
  it("reads node:sqlite's errcode, a code already named, and nothing else", () => {
    expect(sqliteCodeOf(Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR', errcode: 517 }))).toBe(
      'SQLITE_BUSY_SNAPSHOT',
    );
    expect(sqliteCodeOf({ code: 'SQLITE_FULL' })).toBe('SQLITE_FULL');
    expect(sqliteCodeOf(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBeUndefined();
    expect(sqliteCodeOf(null)).toBeUndefined();
  });
});
