import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { join } from 'node:path';
import { openDatabase, pragmaValue } from '../../platform/sqlite.js';
import { describe, expect, it } from 'vitest';
import { StateError } from '../stateErrors.js';
import { resources } from '../../resources/registry.js';
import type { Facts } from '../../resources/resource.js';
import { createStateFile } from './sqliteFile.js';
import { SqliteState } from './sqliteState.js';
import { namespaceOf } from '../remembered.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

const folder = () => join(tempDir('collect-file-'), 'state');
const url = 'https://collect.example.com';
const fileOf = (dir: string) => join(dir, `${namespaceOf(url)}.sqlite`);

function filled(dir: string): void {
  const store = SqliteState.open(dir, url);
  const orders = Array.from({ length: 2000 }, (_, i) => ({
    resource: resources.order,
    hash: `h${i}`,
    outcome: 'accepted' as const,
    facts: {
      kind: 'order',
      orderId: `ORD-${i}`,
      key: `ORD-${i}`,
      evaluate: false,
      payments: [],
      claims: [],
    } as Facts,
  }));
  store.remember(orders, new Date('2025-01-01T00:00:00Z'));
  store.close();
}

describe('the state file', () => {
  it('is private: files 0600 (the WAL too) in a 0700 folder, also when an older collect left them open', () => {
    const dir = folder();
    filled(dir);
    const store = SqliteState.open(dir, url);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir))
      expect([name, statSync(join(dir, name)).mode & 0o777]).toEqual([name, 0o600]);
    store.close();
    chmodSync(dir, 0o755);
    chmodSync(fileOf(dir), 0o644);
    SqliteState.open(dir, url).close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(fileOf(dir)).mode & 0o777).toBe(0o600);
  });

  it('refuses an empty (0-byte) file where a state should be, naming it and what to do', () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    writeFileSync(fileOf(dir), '');
    expect(() => SqliteState.open(dir, url)).toThrow(StateError);
    expect(() => SqliteState.open(dir, url)).toThrow(
      `the state file ${fileOf(dir)} is an empty file (0 bytes)`,
    );
  });

  it('refuses a file that is not SQLite, and a truncated one', () => {
    const garbage = folder();
    mkdirSync(garbage, { recursive: true });
    writeFileSync(fileOf(garbage), 'order_id,decision\n'.repeat(20));
    expect(() => SqliteState.open(garbage, url)).toThrow(/is not a collect state/);
    const cut = folder();
    filled(cut);
    truncateSync(fileOf(cut), Math.floor(statSync(fileOf(cut)).size / 2));
    expect(() => SqliteState.open(cut, url)).toThrow(/is damaged/);
  });

  it('opens a state whose main file is short while its WAL holds the pages (an interrupted checkpoint)', () => {
    const dir = folder();
    filled(dir);
    const db = openDatabase(fileOf(dir));
    db.exec('PRAGMA wal_autocheckpoint = 0');
    db.exec('VACUUM'); // every page goes to the WAL; the main file is left as it was
    const copy = folder();
    mkdirSync(copy, { recursive: true });
    copyFileSync(fileOf(dir), fileOf(copy));
    copyFileSync(`${fileOf(dir)}-wal`, `${fileOf(copy)}-wal`);
    db.close();
    truncateSync(fileOf(copy), Math.floor(statSync(fileOf(copy)).size / 2 / 4096) * 4096);
    const store = SqliteState.open(copy, url);
    expect(store.journalOutcome('h1999')).toBe('accepted');
    store.close();
  });

  it('refuses a state written by a newer collect', () => {
    const dir = folder();
    SqliteState.open(dir, url).close();
    const db = openDatabase(fileOf(dir));
    db.exec('PRAGMA user_version = 99');
    db.close();
    expect(() => SqliteState.open(dir, url)).toThrow(/newer collect \(schema 99/);
  });

  it('is born in WAL mode and migrated, so two first runs never race to switch it (SQLITE_BUSY)', () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'fresh.sqlite');
    createStateFile(path);
    // The header's read and write versions are 2 in WAL mode (1: the rollback journal, to be switched).
    const header = readFileSync(path).subarray(18, 20);
    expect([...header]).toEqual([2, 2]);
    const db = openDatabase(path, { readOnly: true });
    expect(pragmaValue(db, 'user_version')).toBeGreaterThan(0);
    db.close();
  });

  it('is created whole: never a half-made file, and a second opening finds it ready', () => {
    const dir = folder();
    const a = SqliteState.open(dir, url);
    const b = SqliteState.open(dir, url);
    expect(readdirSync(dir).filter((name) => name.endsWith('.new'))).toEqual([]);
    expect(a.hasOrders).toBe(false);
    a.close();
    b.close();
  });
});
