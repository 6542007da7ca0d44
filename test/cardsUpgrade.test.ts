/**
 * A state written while the card keys had a table of their own (order_cards, schema 4) opens with this
 * build, its card rows moved onto their payments: a chargeback is still matched by its card key.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, pragmaValue } from '../src/platform/sqlite.js';
import { hashBlob } from '../src/state/compactRows.js';
import { SqliteState } from '../src/state/sqlite/sqliteState.js';
import { SCHEMA_VERSION } from '../src/state/sqlite/upgrades.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

/** The schema-4 state as that collect made it: its core tables, then order_cards and its lookup index. */
const SCHEMA_4_WITH_CARDS = `
CREATE TABLE meta (key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (key));
CREATE TABLE run_locks (name TEXT NOT NULL, shard_index INTEGER, shard_count INTEGER, token TEXT NOT NULL,
  host TEXT NOT NULL, pid INTEGER NOT NULL, command TEXT NOT NULL, since TEXT NOT NULL, heartbeat INTEGER NOT NULL,
  PRIMARY KEY (name));
CREATE TABLE journal (hash BLOB NOT NULL, outcome INTEGER NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (hash))
  WITHOUT ROWID;
CREATE TABLE orders (order_id TEXT NOT NULL, hash BLOB NOT NULL, evaluate INTEGER NOT NULL, decision TEXT,
  last_status TEXT, PRIMARY KEY (order_id)) WITHOUT ROWID;
CREATE TABLE order_payments (order_id TEXT NOT NULL, payment_id TEXT NOT NULL, acquirer_id TEXT,
  updated_acquirer_id TEXT, PRIMARY KEY (order_id, payment_id)) WITHOUT ROWID;
CREATE TABLE order_deliveries (order_id TEXT NOT NULL, delivery_id TEXT NOT NULL,
  PRIMARY KEY (order_id, delivery_id)) WITHOUT ROWID;
CREATE INDEX order_deliveries_by_id ON order_deliveries (delivery_id);
CREATE TABLE fraud_marks (order_id TEXT NOT NULL, signal_type TEXT NOT NULL, PRIMARY KEY (order_id, signal_type))
  WITHOUT ROWID;
CREATE TABLE decisions (order_id TEXT NOT NULL, decision TEXT NOT NULL, source TEXT NOT NULL, at INTEGER NOT NULL,
  PRIMARY KEY (order_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS order_cards (order_id TEXT NOT NULL, payment_id TEXT NOT NULL, last_four TEXT,
  value_cents TEXT, sale_date TEXT, PRIMARY KEY (order_id, payment_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS order_cards_by_lookup ON order_cards (last_four, value_cents, sale_date);
PRAGMA user_version = 4;`;

const BASE_URL = 'https://collect.example.com';

/** A state folder whose file is a schema-4 state holding orders C-1 (a card payment) and C-2 (none). */
function schema4State(): string {
  const dir = tempDir('collect-cards-upgrade-');
  const db = openDatabase(SqliteState.fileOf(dir, BASE_URL));
  db.exec(SCHEMA_4_WITH_CARDS);
  const order = db.prepare('INSERT INTO orders (order_id, hash, evaluate) VALUES (?, ?, 0)');
  const payment = db.prepare(
    'INSERT INTO order_payments (order_id, payment_id, acquirer_id) VALUES (?, ?, ?)',
  );
  order.run('C-1', hashBlob('a94a8fe5ccb19ba61c4c0873d391e987982fbbd3'));
  order.run('C-2', hashBlob('b94a8fe5ccb19ba61c4c0873d391e987982fbbd3'));
  payment.run('C-1', 'C-1-P', null);
  payment.run('C-2', 'C-2-P', 'TX-2');
  db.prepare('INSERT INTO order_cards VALUES (?, ?, ?, ?, ?)').run(
    'C-1',
    'C-1-P',
    '1808',
    '12990',
    '2024-04-03',
  );
  db.close();
  return dir;
}

describe('a state whose card keys are in order_cards (schema 4)', () => {
  it('opens with its card rows on their payments, order_cards and its index gone', () => {
    const dir = schema4State();
    SqliteState.open(dir, BASE_URL).close();
    const db = openDatabase(SqliteState.fileOf(dir, BASE_URL));
    expect(pragmaValue(db, 'user_version')).toBe(SCHEMA_VERSION);
    const rows = db
      .prepare(
        'SELECT order_id, payment_id, acquirer_id, last_four, value_cents, sale_date FROM order_payments',
      )
      .all();
    expect(rows).toEqual([
      {
        order_id: 'C-1',
        payment_id: 'C-1-P',
        acquirer_id: null,
        last_four: '1808',
        value_cents: '12990',
        sale_date: '2024-04-03',
      },
      {
        order_id: 'C-2',
        payment_id: 'C-2-P',
        acquirer_id: 'TX-2',
        last_four: null,
        value_cents: null,
        sale_date: null,
      },
    ]);
    const names = db
      .prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'order_%card%' ORDER BY name")
      .all();
    expect(names).toEqual([]);
    db.close();
  });

  it('matches a chargeback by its card key once opened by this collect', async () => {
    const dir = schema4State();
    const report = join(dir, 'report.csv');
    writeFileSync(
      report,
      [
        'acquirer_id,order_id,card_last_four,amount,sale_date,network,reason_code',
        ',,1808,129.90,2024-04-04,visa,10.4', // a day after the creation (UTC)
        'TX-2,,,,,visa,10.4',
      ].join('\n'),
    );
    const result = await runCli(
      ['chargebacks', report, '--base-url', BASE_URL, '--state', dir, '--dry-run', '--format', 'json'],
      { env: { COLLECT_API_KEY: 'k-cards-upgrade' } },
    );
    const json = JSON.parse(result.stdout) as {
      chargebacks: { rows: { line: number; outcome: string; order_id?: string; matched_by?: string }[] };
    };
    expect(json.chargebacks.rows.map((r) => [r.line, r.outcome, r.order_id, r.matched_by])).toEqual([
      [2, 'matched', 'C-1', 'composite'],
      [3, 'matched', 'C-2', 'acquirer_id'],
    ]);
  });
});
