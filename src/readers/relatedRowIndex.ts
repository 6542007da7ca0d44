import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import { InputError } from '../core/errors.js';
import type { IndexNeed, RelatedRow, RelatedRows } from '../mapping/compileRow.js';
import { parseCsvRows } from './csvRows.js';
import { inputSpec, openInput } from './openInput.js';
import { checkedUtf8 } from './utf8Check.js';

const BATCH = 20_000;
/** Rows remembered per looked-up file. */
const LOOKUP_CACHE = 20_000;

type Statement = Database.Statement<[string], [number, string]>;

interface Table {
  one: Statement;
  /** The rows of a JSON array of keys, by key and line. */
  many: Database.Statement<[string], [string, number, string]>;
  /** The rows of the last prefetched batch of keys (a key fetched with no rows maps to an empty list). */
  batch?: Map<string, RelatedRow[]>;
}

/**
 * The rows of the files a mapping's lists and lookups read, indexed by their key column in a
 * throwaway SQLite file: a history's payments and items are looked up per order, never held in memory.
 */
export class RelatedRowIndex implements RelatedRows {
  private readonly dir: string;
  private readonly db: Database.Database;
  private readonly tables = new Map<string, Table>();
  private readonly lookups = new Map<string, Map<string, RelatedRow | null>>();

  private constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'collect-related-'));
    this.db = new Database(join(this.dir, 'related.sqlite'));
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('cache_size = -16000');
  }

  /** Reads each needed file once and indexes its rows by the key column; `folder` is where the mapping's names point. */
  static async build(folder: string, needs: readonly IndexNeed[], headers: (file: string) => readonly string[] | undefined): Promise<RelatedRowIndex> {
    const index = new RelatedRowIndex();
    try {
      for (const need of needs) await index.load(folder, need, headers(need.file) ?? []);
    } catch (cause) {
      index.close();
      throw cause;
    }
    return index;
  }

  private async load(folder: string, need: IndexNeed, header: readonly string[]): Promise<void> {
    const table = `t${this.tables.size}`;
    const keyAt = header.findIndex((column) => column.trim() === need.keyColumn.trim());
    this.db.exec(`CREATE TABLE ${table}_load (key TEXT NOT NULL, line INTEGER NOT NULL, cells TEXT NOT NULL)`);
    const insert = this.db.prepare(`INSERT INTO ${table}_load VALUES (?, ?, ?)`);
    const insertMany = this.db.transaction((rows: [string, number, string][]) => {
      for (const row of rows) insert.run(row);
    });
    const path = join(folder, need.file);
    const stream = openInput(inputSpec(path, 'csv'), new PassThrough());
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
        if (batch.error) throw new InputError(`${path}:${batch.error.line}: the CSV cannot be read here (${batch.error.message})`, 'fix the quoting of this row');
      }
    } catch (cause) {
      if (cause instanceof InputError) throw cause;
      throw new InputError(`${path}: cannot be read (${(cause as Error).message})`, 'check the file');
    } finally {
      stream.destroy();
    }
    insertMany(pending);
    // Clustered by key: one order's rows are one seek and a short contiguous read.
    this.db.exec(`CREATE TABLE ${table} (key TEXT NOT NULL, line INTEGER NOT NULL, cells TEXT NOT NULL, PRIMARY KEY (key, line)) WITHOUT ROWID`);
    this.db.exec(`INSERT INTO ${table} SELECT key, line, cells FROM ${table}_load ORDER BY key, line; DROP TABLE ${table}_load`);
    this.tables.set(`${need.file}\u0000${need.keyColumn}`, {
      one: this.db.prepare<[string], [number, string]>(`SELECT line, cells FROM ${table} WHERE key = ? ORDER BY line`).raw(),
      many: this.db.prepare<[string], [string, number, string]>(`SELECT t.key, t.line, t.cells FROM json_each(?) AS j JOIN ${table} AS t ON t.key = j.value ORDER BY t.key, t.line`).raw(),
    });
  }

  private table(file: string, keyColumn: string): Table {
    const table = this.tables.get(`${file}\u0000${keyColumn}`);
    if (!table) throw new Error(`no index of ${file} by ${keyColumn}`);
    return table;
  }

  private statement(file: string, keyColumn: string): Statement {
    return this.table(file, keyColumn).one;
  }

  /** One query for a whole batch of parent rows: statement overhead, not rows, is what costs. */
  prefetch(file: string, keyColumn: string, keys: readonly string[]): void {
    const table = this.table(file, keyColumn);
    const batch = new Map<string, RelatedRow[]>(keys.map((key) => [key, []]));
    for (const [key, line, cells] of table.many.all(JSON.stringify(keys))) batch.get(key)?.push({ line, cells: JSON.parse(cells) as string[] });
    table.batch = batch;
  }

  list(file: string, keyColumn: string, key: string): Iterable<RelatedRow> {
    const fetched = this.table(file, keyColumn).batch?.get(key);
    if (fetched) return fetched;
    return this.statement(file, keyColumn).all(key).map(([line, cells]) => ({ line, cells: JSON.parse(cells) as string[] }));
  }

  lookup(file: string, keyColumn: string, key: string): RelatedRow | undefined {
    const name = `${file}\u0000${keyColumn}`;
    let cache = this.lookups.get(name);
    if (!cache) this.lookups.set(name, (cache = new Map()));
    const cached = cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const fetched = this.table(file, keyColumn).batch?.get(key);
    if (fetched) return fetched[0];
    const row = this.statement(file, keyColumn).get(key);
    const found = row ? { line: row[0], cells: JSON.parse(row[1]) as string[] } : null;
    // Bounded: products and sellers repeat across orders, customers mostly do not.
    if (cache.size >= LOOKUP_CACHE) cache.clear();
    cache.set(key, found);
    return found ?? undefined;
  }

  close(): void {
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
