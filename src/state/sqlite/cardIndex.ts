import { arrays, pragmaValue, type Database } from '../../platform/sqlite.js';
import { CARD_COLUMNS, CARD_INDEX } from '../coreTables.js';

/**
 * The card payments a chargeback's card key finds (source-files.md A.0.7), through their index. A run
 * fills an empty order_payments unindexed and indexes it once, before its lock is released (a sorted
 * build, not one random index insert per payment); a state that holds payments and no index (a killed
 * run's) is indexed at open, and a lookup that comes first makes the index itself.
 */
export class CardIndex {
  private indexed: boolean;

  constructor(private readonly db: Database) {
    const made = db
      .prepare('SELECT 1 FROM sqlite_schema WHERE type = ? AND name = ?')
      .get('index', CARD_INDEX);
    this.indexed = made !== undefined;
    if (!this.indexed && db.prepare('SELECT EXISTS (SELECT 1 FROM order_payments) AS any').get()?.any === 1)
      this.make();
  }

  /** Makes the index if it is still missing. */
  make(): void {
    if (this.indexed) return;
    // Built with a small cache: the sort spills to a temporary file rather than hold ~20 MiB more at a run's end.
    const cache = pragmaValue(this.db, 'cache_size') as number;
    this.db.exec('PRAGMA cache_size = -2048');
    try {
      this.db.exec(
        `CREATE INDEX IF NOT EXISTS ${CARD_INDEX} ON order_payments (${CARD_COLUMNS.join(', ')}) ` +
          'WHERE last_four IS NOT NULL',
      );
    } finally {
      this.db.exec(`PRAGMA cache_size = ${cache}`);
    }
    this.indexed = true;
  }

  /**
   * The orders whose card payments hold each card key (last four, cents, UTC date): `tuple` is the key's
   * position in `cards`.
   */
  ordersByCard(cards: readonly (readonly string[])[]): { tuple: number; orderId: string }[] {
    const found: { tuple: number; orderId: string }[] = [];
    if (cards.length === 0) return found;
    this.make();
    const select = arrays<[string]>(
      this.db.prepare(
        `SELECT DISTINCT order_id FROM order_payments WHERE ${CARD_COLUMNS.map((c) => `${c} = ?`).join(' AND ')}`,
      ),
    );
    for (const [tuple, values] of cards.entries())
      for (const [orderId] of select.all(...values)) found.push({ tuple, orderId });
    return found;
  }
}
