import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '../platform/sqlite.js';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { guardDatabase, guardState, stateError, StateError } from './stateErrors.js';
import { SqliteState } from './sqlite/sqliteState.js';

const sqlite = (code: string, message = 'x') => new Database.SqliteError(message, code);

describe('stateError', () => {
  it.each([
    ['SQLITE_CORRUPT', 'is damaged (SQLITE_CORRUPT)', 'mv /s/x.sqlite /s/x.sqlite.broken'],
    ['SQLITE_CORRUPT_INDEX', 'is damaged (SQLITE_CORRUPT_INDEX)', 'mv /s/x.sqlite'],
    ['SQLITE_NOTADB', 'is not a collect state', 'mv /s/x.sqlite'],
    ['SQLITE_FULL', 'the disk holding the state file /s/x.sqlite is full', 'free space on that disk'],
    ['SQLITE_IOERR_WRITE', 'cannot write the state file /s/x.sqlite (SQLITE_IOERR_WRITE)', 'free space'],
    [
      'SQLITE_IOERR_READ',
      'cannot read or write the state file /s/x.sqlite (SQLITE_IOERR_READ)',
      'check the disk',
    ],
    ['SQLITE_CANTOPEN', 'cannot open the state file /s/x.sqlite', '--state DIR'],
    ['SQLITE_READONLY', 'cannot be written (SQLITE_READONLY)', 'chmod u+w /s/x.sqlite'],
    ['SQLITE_BUSY', 'in use by another process', 'wait'],
    ['SQLITE_ERROR', 'cannot be used (SQLITE_ERROR: x)', 'another version of collect'],
  ])('%s: exit 2, the file named, and what to do', (code, message, hint) => {
    const error = stateError(sqlite(code), '/s/x.sqlite')!;
    expect(error).toBeInstanceOf(StateError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(message);
    expect(error.message).toContain('/s/x.sqlite');
    expect(error.hint).toContain(hint);
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
    const path = join(mkdtempSync(join(tmpdir(), 'collect-guard-')), 'x.sqlite');
    const db = guardDatabase(path, () => new Database(path));
    db.exec('CREATE TABLE t (v TEXT)');
    expect(() => db.prepare('SELECT * FROM missing')).toThrow(StateError);
    db.pragma('max_page_count = 3');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    expect(() =>
      db.transaction(() => {
        for (let i = 0; i < 1000; i++) insert.run('x'.repeat(1000));
      })(),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(`the disk holding the state file ${path} is full`),
      }),
    );
    expect([...db.prepare('SELECT v FROM t').iterate()]).toEqual([]);
    db.close();
  });

  it('a SqliteState whose disk fills up: remember throws a StateError naming the file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'collect-full-'));
    const store = SqliteState.open(folder, 'https://collect.example.com');
    // SQLite's own page limit stands in for a full disk: the same SQLITE_FULL, with no disk to fill.
    (store as unknown as { db: Database.Database }).db.pragma('max_page_count = 8');
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
