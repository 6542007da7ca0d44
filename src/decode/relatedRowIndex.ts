import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Database from '../platform/sqlite.js';
import { InputError } from '../core/errors.js';
import type { IndexNeed } from '../mapping/compileRow.js';
import { parseCsvRows } from './csvRows.js';
import { openInput, type InputSpec } from './openInput.js';
import { RelatedRowReader } from './relatedRowReader.js';
import { checkedUtf8 } from './utf8Check.js';

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
    db: Database.Database,
  ) {
    super(path, db);
  }

  /** A fresh index file in a throwaway folder of this run's, which closing the index removes. */
  private static create(scratch: ScratchFolder): RelatedRowIndex {
    const path = join(scratch.dir(), 'related.sqlite');
    const db = new Database(path);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -16000');
    return new RelatedRowIndex(scratch, path, db);
  }

  /** Reads each needed file once and indexes its rows by the key column; `located` says where a name of the mapping is read. */
  static async build(
    scratch: ScratchFolder,
    located: (file: string) => InputSpec,
    needs: readonly IndexNeed[],
    headers: (file: string) => readonly string[] | undefined,
  ): Promise<RelatedRowIndex> {
    const index = RelatedRowIndex.create(scratch);
    try {
      for (const need of needs) await index.load(located(need.file), need, headers(need.file) ?? []);
    } catch (cause) {
      index.close();
      throw cause;
    }
    return index;
  }

  private async load(file: InputSpec, need: IndexNeed, header: readonly string[]): Promise<void> {
    const table = `t${this.made++}`;
    const keyAt = header.findIndex((column) => column.trim() === need.keyColumn.trim());
    this.db.exec(
      `CREATE TABLE ${table}_load (key TEXT NOT NULL, line INTEGER NOT NULL, cells TEXT NOT NULL)`,
    );
    const insert = this.db.prepare(`INSERT INTO ${table}_load VALUES (?, ?, ?)`);
    const insertMany = this.db.transaction((rows: [string, number, string][]) => {
      for (const row of rows) insert.run(row);
    });
    const path = file.name;
    const stream = openInput(file, new PassThrough());
    let pending: [string, number, string][] = [];
    let first = true;
    try {
      for await (const batch of parseCsvRows(checkedUtf8(stream as AsyncIterable<Buffer>), 1024 * 1024)) {
        for (let n = 0; n < batch.rows.length; n++) {
          if (first) {
            first = false;
            continue;
          }
          const cells = batch.rows[n]!;
          pending.push([(cells[keyAt] ?? '').trim(), batch.lines[n]!, JSON.stringify(cells)]);
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
    // Clustered by key: one order's rows are one seek and a short contiguous read.
    this.db.exec(
      `CREATE TABLE ${table} (key TEXT NOT NULL, line INTEGER NOT NULL, cells TEXT NOT NULL, PRIMARY KEY (key, line)) WITHOUT ROWID`,
    );
    this.db.exec(
      `INSERT INTO ${table} SELECT key, line, cells FROM ${table}_load ORDER BY key, line; DROP TABLE ${table}_load`,
    );
    this.bind(`${need.file}\u0000${need.keyColumn}`, table);
  }

  override close(): void {
    super.close();
    this.scratch.close();
  }
}
