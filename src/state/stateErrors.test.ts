import { join } from 'node:path';
import { openDatabase, transaction, type Database } from '../platform/sqlite.js';
import { WriterFailure } from '../fast/stateWriterThread.js';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { guardDatabase, guardState, stateError, StateError } from './stateErrors.js';
import { SqliteState } from './sqlite/sqliteState.js';
import { tempDir } from '../../test/helpers/tempDir.js';

/** A failure as node:sqlite throws it: its code is generic, the SQLite result code a number (extended). */
const sqlite = (errcode: number, message = 'x') =>
  Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode, errstr: message });

describe('stateError', () => {
  it.each([
    [11, 'is damaged (SQLITE_CORRUPT)', 'mv /s/x.sqlite /s/x.sqlite.broken'],
    [11 | (3 << 8), 'is damaged (SQLITE_CORRUPT_INDEX)', 'mv /s/x.sqlite'],
    [26, 'is not a collect state', 'mv /s/x.sqlite'],
    [13, 'the disk holding the state file /s/x.sqlite is full', 'free space on that disk'],
    [10 | (3 << 8), 'cannot write the state file /s/x.sqlite (SQLITE_IOERR_WRITE)', 'free space'],
    [10 | (1 << 8), 'cannot read or write the state file /s/x.sqlite (SQLITE_IOERR_READ)', 'check the disk'],
    [14, 'cannot open the state file /s/x.sqlite', '--state DIR'],
    [8, 'cannot be written (SQLITE_READONLY)', 'chmod u+w /s/x.sqlite'],
    [5, 'in use by another process', 'wait'],
    [1, 'cannot be used (SQLITE_ERROR: x)', 'another version of collect'],
  ])('SQLite code %i: exit 2, the file named, and what to do', (code, message, hint) => {
    const error = stateError(sqlite(code), '/s/x.sqlite')!;
    expect(error).toBeInstanceOf(StateError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(message);
    expect(error.message).toContain('/s/x.sqlite');
    expect(error.hint).toContain(hint);
  });

  it("reads the writer thread's failure by the code it names", () => {
    const error = stateError(new WriterFailure('database or disk is full', 'SQLITE_FULL'), '/s/x.sqlite');
    expect(error?.message).toContain('the disk holding the state file /s/x.sqlite is full');
  });

  it('leaves errors that are not SQLite ones alone', () => {
    expect(stateError(new TypeError('bug'), '/s/x.sqlite')).toBeUndefined();
    expect(() =>
      guardState('/s/x.sqlite', () => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });
});

describe('guardDatabase', () => {
  it('turns failures of reads, writes, commits and iteration into StateErrors', () => {
    const path = join(tempDir('collect-guard-'), 'x.sqlite');
    const db = guardDatabase(path, () => openDatabase(path));
    db.exec('CREATE TABLE t (v TEXT)');
    expect(() => db.prepare('SELECT * FROM missing')).toThrow(StateError);
    db.exec('PRAGMA max_page_count = 3');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    expect(() =>
      transaction(db, () => {
        for (let i = 0; i < 1000; i++) insert.run('x'.repeat(1000));
      }),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(`the disk holding the state file ${path} is full`),
      }),
    );
    expect([...db.prepare('SELECT v FROM t').iterate()]).toEqual([]);
    db.close();
  });

  it('a SqliteState whose disk fills up: remember throws a StateError naming the file', () => {
    const folder = tempDir('collect-full-');
    const store = SqliteState.open(folder, 'https://collect.example.com');
    // SQLite's own page limit stands in for a full disk: the same SQLITE_FULL, with no disk to fill.
    (store as unknown as { db: Database }).db.exec('PRAGMA max_page_count = 8');
    const records = Array.from({ length: 5000 }, (_, i) => ({
      resource: resources.status,
      hash: `h${i}`.padEnd(64, 'x'),
      outcome: 'accepted' as const,
      facts: { kind: 'status', orderId: `ORDER-${i}`, key: `ORDER-${i}`, status: 'approved' } as Facts,
    }));
    expect(() => store.remember(records, new Date())).toThrow(
      expect.objectContaining({
        code: 'state',
        exitCode: 2,
        message: expect.stringMatching(/the disk holding .*service-.*\.sqlite is full/),
      }),
    );
    store.close();
  });
});
