import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { arrays, openDatabase, pragmaValue, transaction, type Statement } from './sqlite.js';
import { sqliteCodeOf } from './sqliteCodes.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const loader = pathToFileURL(join(import.meta.dirname, 'nodeSqlite.js')).href;

/** Runs `code` in a fresh Node (ESM) after loading node:sqlite through nodeSqlite.js. */
function child(code: string) {
  const script = `import { DatabaseSync } from ${JSON.stringify(loader)};\n${code}`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

describe('nodeSqlite', () => {
  // Node 22 prints "ExperimentalWarning: SQLite is an experimental feature" on the first load of node:sqlite.
  it('loads node:sqlite without a warning, and other warnings still print', () => {
    const run = child(
      "new DatabaseSync(':memory:').close(); process.emitWarning('still told', 'ExperimentalWarning');",
    );
    expect(run.status).toBe(0);
    expect(run.stderr).not.toMatch(/SQLite/);
    expect(run.stderr).toMatch(/ExperimentalWarning: still told/);
  });

  // better-sqlite3 12 aborted Node 24.19+ here (statements left to the garbage collector while timers run).
  it('survives statements collected by the garbage collector', () => {
    const run = child(`
const db = new DatabaseSync(':memory:');
let n = 0;
const timer = setInterval(() => {
  for (let i = 0; i < 2000; i++) db.prepare('select ' + n++).get();
  const garbage = [];
  for (let i = 0; i < 20000; i++) garbage.push({ i, s: 'x'.repeat(50) });
  if (n >= 50000) { clearInterval(timer); console.log('prepared', n); }
}, 1);`);
    expect(run.stderr).toBe('');
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: 'prepared 50000\n' });
  });
});

describe('sqlite', () => {
  it('answers rows as arrays in column order, also where Node lacks setReturnArrays (22.13-22.15)', () => {
    const db = openDatabase(':memory:');
    const sql = "SELECT 0, 'b' AS b, NULL AS a UNION ALL SELECT 1, 'c', 2";
    const native = arrays(db.prepare(sql));
    const statement = db.prepare(sql);
    const old = new Proxy(statement, {
      get: (target, key) =>
        key === 'setReturnArrays'
          ? undefined
          : (Reflect.get(target, key) as (...a: unknown[]) => unknown).bind(target),
    }) as Statement;
    for (const rows of [native, arrays(old)]) {
      expect(rows.all()).toEqual([
        [0, 'b', null],
        [1, 'c', 2],
      ]);
      expect(rows.get()).toEqual([0, 'b', null]);
      expect([...rows.iterate()]).toEqual([
        [0, 'b', null],
        [1, 'c', 2],
      ]);
    }
    db.close();
  });

  it('reads a pragma', () => {
    const db = openDatabase(':memory:');
    db.exec('PRAGMA user_version = 7');
    expect(pragmaValue(db, 'user_version')).toBe(7);
    db.close();
  });

  it('commits a transaction, and rolls it back when its body throws', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (v INTEGER)');
    expect(transaction(db, () => db.prepare('INSERT INTO t VALUES (1)').run().changes)).toBe(1);
    expect(() =>
      transaction(db, () => {
        db.exec('INSERT INTO t VALUES (2)');
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(db.prepare('SELECT v FROM t').all()).toEqual([{ v: 1 }]);
    // Nothing is left open: another transaction begins.
    transaction(db, () => db.exec('INSERT INTO t VALUES (3)'));
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    db.close();
  });

  it('an IMMEDIATE transaction takes the write lock at BEGIN: refused (SQLITE_BUSY) while another writes', () => {
    const path = join(tempDir('collect-sqlite-'), 'x.sqlite');
    const [a, b] = [openDatabase(path), openDatabase(path)];
    a.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER)');
    let ran = false;
    transaction(
      a,
      () => {
        expect(() => transaction(b, () => (ran = true), 'immediate')).toThrow(
          expect.objectContaining({ errcode: 5 }),
        );
      },
      'immediate',
    );
    expect(ran).toBe(false);
    transaction(b, () => b.exec('INSERT INTO t VALUES (1)'), 'immediate');
    expect(a.prepare('SELECT v FROM t').all()).toEqual([{ v: 1 }]);
    a.close();
    b.close();
  });

  it("names node:sqlite's failures as SQLite does (stateErrors.ts reads the name)", () => {
    const db = openDatabase(':memory:');
    db.exec('PRAGMA max_page_count = 2; CREATE TABLE t (v)');
    let failure: unknown;
    try {
      db.exec('INSERT INTO t VALUES (randomblob(100000))');
    } catch (cause) {
      failure = cause;
    }
    expect(sqliteCodeOf(failure)).toBe('SQLITE_FULL');
    db.close();
    expect(() => openDatabase(join(tmpdir(), 'collect-no-such-folder', 'x.sqlite'))).toThrow(
      expect.objectContaining({ errcode: 14 }),
    );
  });
});
