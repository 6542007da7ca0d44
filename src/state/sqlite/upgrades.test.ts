import { join } from 'node:path';
import { openDatabase, pragmaValue } from '../../platform/sqlite.js';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, upgrades } from './upgrades.js';
import { SqliteState } from './sqliteState.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

const HASH = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
const OTHER = 'b94a8fe5ccb19ba61c4c0873d391e987982fbbd3';

/** The schema of a state file as the first collect made it (schema 1), before any upgrade. */
const VERSION_1 = `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE orders (
     order_id TEXT PRIMARY KEY, hash TEXT NOT NULL, evaluate INTEGER NOT NULL,
     decision TEXT, last_status TEXT
   );
   CREATE TABLE order_payments (
     order_id TEXT NOT NULL, payment_id TEXT NOT NULL, acquirer_id TEXT,
     PRIMARY KEY (order_id, payment_id)
   );
   CREATE TABLE order_deliveries (order_id TEXT NOT NULL, delivery_id TEXT NOT NULL, PRIMARY KEY (order_id, \
delivery_id));
   CREATE INDEX order_deliveries_by_id ON order_deliveries (delivery_id);
   CREATE TABLE fraud_marks (order_id TEXT NOT NULL, signal_type TEXT NOT NULL, PRIMARY KEY (order_id, signal_type));
   CREATE TABLE journal (
     hash TEXT PRIMARY KEY, endpoint TEXT NOT NULL, order_id TEXT, outcome TEXT NOT NULL, at TEXT NOT NULL
   );`;

/** A state file as collect with schema 3 left it. */
function version3State(): { dir: string; path: string } {
  const dir = tempDir('collect-migrate-');
  const path = join(dir, 'dry-run.sqlite');
  const old = openDatabase(path);
  [VERSION_1, ...upgrades.slice(0, 2)].forEach((step) => old.exec(step));
  old.exec('PRAGMA user_version = 3');
  old
    .prepare('INSERT INTO journal VALUES (?, ?, ?, ?, ?)')
    .run(HASH, 'status', 'A', 'accepted', '2024-03-01T10:00:00.000Z');
  old
    .prepare('INSERT INTO journal VALUES (?, ?, ?, ?, ?)')
    .run(OTHER, 'order', 'B', 'rejected', '2024-03-01T10:00:01.000Z');
  old
    .prepare('INSERT INTO journal VALUES (?, ?, ?, ?, ?)')
    .run('not-hex', 'order', 'C', 'failed', '2024-03-01T10:00:02.000Z');
  old.prepare('INSERT INTO orders VALUES (?, ?, ?, ?, ?)').run('A', HASH, 1, 'approve', 'approved');
  old.prepare('INSERT INTO orders VALUES (?, ?, ?, ?, ?)').run('D', 'h', 0, null, null);
  old.prepare('INSERT INTO order_payments VALUES (?, ?, ?, ?)').run('A', 'P1', 'ACQ', 'ACQ2');
  old.prepare('INSERT INTO order_deliveries VALUES (?, ?)').run('A', 'D1');
  old.prepare('INSERT INTO fraud_marks VALUES (?, ?)').run('E', 'chargeback');
  old
    .prepare('INSERT INTO decisions VALUES (?, ?, ?, ?)')
    .run('F', 'reject', 'decisions.csv', '2024-03-02T00:00:00.000Z');
  old.close();
  return { dir, path };
}

describe('migration 4 (compact rows)', () => {
  it('keeps everything a version-3 state recorded', () => {
    const { dir } = version3State();
    const store = SqliteState.open(dir);
    expect(store.journalOutcome(HASH)).toBe('accepted');
    expect(store.journalOutcome(OTHER)).toBe('rejected');
    expect(store.journalOutcome('not-hex')).toBe('failed');
    expect(store.journalOutcome(HASH.replace('a9', 'c9'))).toBeUndefined();
    expect(store.priorOrder('A')).toMatchObject({
      created: true,
      hash: HASH,
      evaluate: true,
      decision: 'approve',
      lastStatus: 'approved',
      payments: { P1: 'ACQ' },
      deliveryIds: ['D1'],
    });
    expect(store.priorOrder('D')).toMatchObject({ created: true, hash: 'h', evaluate: false });
    expect(store.priorOrder('E')).toMatchObject({ created: false, fraudTypes: ['chargeback'] });
    expect(store.priorOrder('F')).toMatchObject({ created: false, decision: 'reject' });
    expect(store.claimants('D1')).toEqual(['A']);
    store.close();
  });
  it('stores hex hashes as 20-byte blobs, outcomes as integers, times as Unix seconds, tables without rowid', () => {
    const { dir, path } = version3State();
    SqliteState.open(dir).close();
    const db = openDatabase(path);
    expect(pragmaValue(db, 'user_version')).toBe(SCHEMA_VERSION);
    expect(
      db
        .prepare(
          'SELECT typeof(hash) AS type, length(hash) AS bytes, outcome, at FROM journal WHERE outcome = 1',
        )
        .get(),
    ).toEqual({ type: 'blob', bytes: 20, outcome: 1, at: 1709287200 });
    expect(db.prepare("SELECT typeof(hash) AS type FROM orders WHERE order_id = 'D'").get()).toEqual({
      type: 'text',
    });
    expect(db.prepare("SELECT at FROM decisions WHERE order_id = 'F'").get()).toEqual({ at: 1709337600 });
    expect(
      db
        .prepare("SELECT name FROM pragma_table_info('journal')")
        .all()
        .map((c) => (c as { name: string }).name),
    ).toEqual(['hash', 'outcome', 'at']);
    for (const table of [
      'journal',
      'orders',
      'order_payments',
      'order_deliveries',
      'fraud_marks',
      'decisions',
    ]) {
      expect(db.prepare(`SELECT sql FROM sqlite_schema WHERE name = ?`).get(table)).toMatchObject({
        sql: expect.stringMatching(/WITHOUT ROWID$/),
      });
    }
    db.close();
  });
  it('writes new records in the compact form', () => {
    const dir = tempDir('collect-migrate-');
    const store = SqliteState.open(dir);
    store.rememberDecision('G', 'approve', new Date('2024-03-01T10:00:00.500Z'));
    store.close();
    const db = openDatabase(join(dir, 'dry-run.sqlite'));
    expect(db.prepare('SELECT order_id, decision, source, at FROM decisions').get()).toEqual({
      order_id: 'G',
      decision: 'approve',
      source: 'by hand',
      at: 1709287200,
    });
    db.close();
  });
});

/** Each table's columns (name, type, NOT NULL on a column outside the key, key position) and each index. */
function schemaOf(path: string): unknown {
  const db = openDatabase(path);
  const tables = db
    .prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .all() as { name: string; sql: string }[];
  const schema = tables.map(({ name, sql }) => ({
    name,
    withoutRowid: /WITHOUT ROWID$/.test(sql),
    columns: (
      db.prepare('SELECT name, type, "notnull", pk FROM pragma_table_info(?)').all(name) as {
        name: string;
        type: string;
        notnull: number;
        pk: number;
      }[]
    ).map((c) => ({ ...c, notnull: c.pk > 0 ? 'key' : c.notnull })),
    indexes: db.prepare("SELECT name FROM pragma_index_list(?) WHERE origin = 'c' ORDER BY name").all(name),
  }));
  db.close();
  return schema;
}

describe('a new state, made from the core tables as declared (coreTables.ts)', () => {
  it('has the schema a version-1 state reaches through every upgrade', () => {
    const upgraded = tempDir('collect-migrate-');
    const old = openDatabase(join(upgraded, 'dry-run.sqlite'));
    old.exec(VERSION_1);
    old.exec('PRAGMA user_version = 1');
    old.close();
    SqliteState.open(upgraded).close();
    const fresh = tempDir('collect-migrate-');
    SqliteState.open(fresh).close();
    const made = schemaOf(join(fresh, 'dry-run.sqlite'));
    expect(made).toEqual(schemaOf(join(upgraded, 'dry-run.sqlite')));
    expect(made).toContainEqual(expect.objectContaining({ name: 'orders', withoutRowid: true }));
  });
  it('brings a state written by an older collect up to date', () => {
    const folder = tempDir('collect-migrate-');
    const old = openDatabase(join(folder, 'dry-run.sqlite'));
    old.exec(VERSION_1);
    old.exec('PRAGMA user_version = 1');
    old.prepare("INSERT INTO orders (order_id, hash, evaluate) VALUES ('A', 'h', 0)").run();
    old.close();
    const store = SqliteState.open(folder);
    expect(store.priorOrder('A')).toMatchObject({ created: true, hash: 'h' });
    store.close();
    const db = openDatabase(join(folder, 'dry-run.sqlite'));
    expect(pragmaValue(db, 'user_version')).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT name FROM pragma_table_info('order_payments')").all()).toContainEqual({
      name: 'updated_acquirer_id',
    });
    db.close();
  });
});
