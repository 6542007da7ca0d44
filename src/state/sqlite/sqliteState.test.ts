import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, pragmaValue } from '../../platform/sqlite.js';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from './upgrades.js';
import { SqliteState } from './sqliteState.js';
import { namespaceOf } from '../remembered.js';
import { runStateContract } from '../runStateContract.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

const dir = () => tempDir('collect-store-');

runStateContract({
  name: 'SQLite',
  fresh: async () => {
    const folder = dir();
    return async (baseUrl) => SqliteState.open(folder, baseUrl);
  },
});

describe('SqliteState', () => {
  it('keeps one file per service base URL, and its own for dry runs without one', () => {
    const folder = dir();
    SqliteState.open(folder).close();
    SqliteState.open(folder, 'https://a.example.test/').close();
    SqliteState.open(folder, 'https://A.example.test').close();
    SqliteState.open(folder, 'https://b.example.test').close();
    expect(
      readdirSync(folder)
        .filter((f) => f.endsWith('.sqlite'))
        .sort(),
    ).toEqual(
      [
        'dry-run.sqlite',
        `${namespaceOf('https://a.example.test')}.sqlite`,
        `${namespaceOf('https://b.example.test')}.sqlite`,
      ].sort(),
    );
  });
  it('uses WAL and records its schema version, refusing a newer one', () => {
    const folder = dir();
    SqliteState.open(folder).close();
    const db = openDatabase(join(folder, 'dry-run.sqlite'));
    expect(pragmaValue(db, 'journal_mode')).toBe('wal');
    expect(pragmaValue(db, 'user_version')).toBe(SCHEMA_VERSION);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => SqliteState.open(folder)).toThrow(/newer collect/);
  });
});
