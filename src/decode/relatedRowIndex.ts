import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openDatabase, transaction, type Database } from '../platform/sqlite.js';
import { REASON_FIELD } from '../core/rejectsField.js';
import { restoreFormula } from '../convert/formulaCells.js';
import { InputError } from '../core/errors.js';
import type { IndexNeed } from '../mapping/compileRow.js';
import { parseCsvRows } from './csvRows.js';
import { openInput, type InputSpec } from './openInput.js';
import { RelatedRowReader } from './relatedRowReader.js';
import { csvBytes } from './csvDialect.js';

const BATCH = 20_000;

/** A throwaway folder of the run's (the run's scratch folder): made on first use, removed when closed. */
export interface ScratchFolder {
  dir(): string;
  close(): void;
}

/**
 * The rows of the files a mapping's lists and lookups read, indexed by their key column in a
 * throwaway SQLite file: a history's payments and items are looked up per order, never held in memory.
 */
export class RelatedRowIndex extends RelatedRowReader {
  /** Tables made so far: each needed file and key column gets the next. */
  private made = 0;

  private constructor(
    private readonly scratch: ScratchFolder,
    path: string,
    db: Database,
  ) {
    super(path, db);
  }

  /** A fresh index file in a throwaway folder of this run's, which closing the index removes. */
  private static create(scratch: ScratchFolder): RelatedRowIndex {
    const path = join(scratch.dir(), 'related.sqlite');
    const db = openDatabase(path);
    db.exec('PRAGMA journal_mode = OFF');
    db.exec('PRAGMA synchronous = OFF');
    db.exec('PRAGMA cache_size = -16000');
    return new RelatedRowIndex(scratch, path, db);
  }

  /**
   * Reads each needed file once and indexes its rows by the key column; `located` says where a name of the
   * mapping is read.
   */
  static async build(
    scratch: ScratchFolder,
    located: (file: string) => InputSpec,
    needs: readonly IndexNeed[],
    headers: (file: string) => readonly string[] | undefined,
  ): Promise<RelatedRowIndex> {
    const index = RelatedRowIndex.create(scratch);
    try {
      for (const need of needs) {
        const table = index.open();
        const files = need.files ?? [need.file];
        // A glob's files share their columns, maybe in another order: each row is stored in the first one's.
        const order = headers(files[0]!) ?? [];
        for (const file of files)
          await index.load(located(file), table, need, order, headers(file) ?? [], need.files ? file : '');
        index.close_(table, need);
      }
    } catch (cause) {
      index.close();
      throw cause;
    }
    return index;
  }

  /** A new table's loading table, filled by `load` file by file. */
  private open(): string {
    const table = `t${this.made++}`;
    this.db.exec(
      `CREATE TABLE ${table}_load (key TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL, cells TEXT NOT NULL)`,
    );
    return table;
  }

  private async load(
    file: InputSpec,
    table: string,
    need: IndexNeed,
    order: readonly string[],
    header: readonly string[],
    name: string,
  ): Promise<void> {
    const keyAt = header.findIndex((column) => column.trim() === need.keyColumn.trim());
    // A rejects file collect wrote (it has the reasons column): its cells carry the formula guard to remove.
    const restore = header.includes(REASON_FIELD);
    const same = order.length === header.length && order.every((column, at) => column === header[at]);
    const from = same
      ? undefined
      : order.map((column) => header.findIndex((h) => h.trim() === column.trim()));
    const insert = this.db.prepare(`INSERT INTO ${table}_load VALUES (?, ?, ?, ?)`);
    const insertMany = (rows: [string, string, number, string][]) =>
      transaction(this.db, () => {
        for (const row of rows) insert.run(...row);
      });
    const path = file.name;
    const stream = openInput(file, new PassThrough());
    let pending: [string, string, number, string][] = [];
    let first = true;
    try {
      for await (const batch of parseCsvRows(
        csvBytes(stream as AsyncIterable<Buffer>, file.csv),
        1024 * 1024,
      )) {
        for (let n = 0; n < batch.rows.length; n++) {
          if (first) {
            first = false;
            continue;
          }
          const cells = restore ? batch.rows[n]!.map(restoreFormula) : batch.rows[n]!;
          const stored = from ? from.map((at) => (at < 0 ? '' : (cells[at] ?? ''))) : cells;
          pending.push([(cells[keyAt] ?? '').trim(), name, batch.lines[n]!, JSON.stringify(stored)]);
        }
        if (pending.length >= BATCH) {
          insertMany(pending);
          pending = [];
        }
        if (batch.error)
          throw new InputError(
            `${path}:${batch.error.line}: the CSV cannot be read here (${batch.error.message})`,
            'fix the quoting of this row',
          );
      }
    } catch (cause) {
      if (cause instanceof InputError) throw cause;
      throw new InputError(`${path}: cannot be read (${(cause as Error).message})`, 'check the file');
    } finally {
      stream.destroy();
    }
    insertMany(pending);
  }

  /** The loaded rows clustered by key: one order's rows are one seek and a short contiguous read. */
  private close_(table: string, need: IndexNeed): void {
    this.db.exec(
      `CREATE TABLE ${table} (key TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL, cells ` +
        `TEXT NOT NULL, PRIMARY KEY (key, file, line)) WITHOUT ROWID`,
    );
    this.db.exec(
      `INSERT INTO ${table} SELECT key, file, line, cells FROM ${table}_load ORDER BY key, file, ` +
        `line; DROP TABLE ${table}_load`,
    );
    this.bind(`${need.file}\u0000${need.keyColumn}`, table);
  }

  override close(): void {
    super.close();
    this.scratch.close();
  }
}
