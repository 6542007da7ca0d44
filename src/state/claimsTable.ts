import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, transaction, type Database, type Statement } from '../platform/sqlite.js';
import { guardDatabase } from './stateErrors.js';

/** Claims inserted per statement. */
const ROWS = 200;

/**
 * Which orders of a spilled run claim each key (a delivery id, claimed by its order's creation),
 * for the records that name one: a throwaway SQLite file, built once when the run index is read
 * back and deleted on close, so that millions of claims need not live in memory.
 */
export class ClaimsTable {
  private readonly owners_: Statement;

  private constructor(
    private readonly db: Database,
    private readonly path: string,
  ) {
    this.owners_ = db.prepare('SELECT order_id FROM claims WHERE claimed_key = ? ORDER BY rowid');
  }

  /** Builds the table in `dir` from each creation's order id and its claimed keys. */
  static build(dir: string, claims: Iterable<[string, readonly string[]]>): ClaimsTable {
    const path = join(
      dir,
      `claims-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.sqlite`,
    );
    const db = guardDatabase(path, () => openDatabase(path));
    db.exec('PRAGMA journal_mode = OFF');
    db.exec('PRAGMA synchronous = OFF');
    db.exec('CREATE TABLE claims (claimed_key TEXT NOT NULL, order_id TEXT NOT NULL)');
    const many = db.prepare(
      `INSERT INTO claims VALUES ${Array.from({ length: ROWS }, () => '(?, ?)').join(', ')}`,
    );
    const one = db.prepare('INSERT INTO claims VALUES (?, ?)');
    let params: string[] = [];
    transaction(db, () => {
      for (const [orderId, keys] of claims) {
        for (const key of keys) {
          params.push(key, orderId);
          if (params.length === 2 * ROWS) {
            many.run(...params);
            params = [];
          }
        }
      }
      for (let i = 0; i < params.length; i += 2) one.run(params[i]!, params[i + 1]!);
    });
    db.exec('CREATE INDEX claims_by_key ON claims (claimed_key)');
    return new ClaimsTable(db, path);
  }

  /** The orders whose creations in this run claim `key`, in reading order. */
  owners(key: string): string[] {
    return (this.owners_.all(key) as { order_id: string }[]).map((row) => row.order_id);
  }

  close(): void {
    this.db.close();
    for (const suffix of ['', '-journal']) rmSync(`${this.path}${suffix}`, { force: true });
  }
}
