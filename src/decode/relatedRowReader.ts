import { arrays, openDatabase, type ArrayStatement, type Database } from '../platform/sqlite.js';
import type { RelatedRow, RelatedRows } from '../mapping/compileRow.js';

/** Rows remembered per looked-up file. */
const LOOKUP_CACHE = 20_000;

type Statement = ArrayStatement<[string, number, string]>;

/** Where an index lives and its tables, by file and key column: what another thread needs to read it (`open`). */
export interface RelatedIndexFile {
  path: string;
  tables: [string, string][];
}

interface Table {
  one: Statement;
  /** The rows of a JSON array of keys, by key and line. */
  many: ArrayStatement<[string, string, number, string]>;
  /** The rows of the last prefetched batch of keys (a key fetched with no rows maps to an empty list). */
  batch?: Map<string, RelatedRow[]>;
}

function related(file: string, line: number, cells: string): RelatedRow {
  const row: RelatedRow = { line, cells: JSON.parse(cells) as string[] };
  if (file !== '') row.file = file;
  return row;
}

/** The index files this thread opened to read, one connection each however many files' pieces read them. */
const opened = new Map<string, RelatedRowReader>();

/**
 * The rows of a mapping's related files by key, read from the SQLite file relatedRowIndex.ts wrote:
 * by the thread that built it, and read-only by the piece workers that map a file's rows (`open`).
 */
export class RelatedRowReader implements RelatedRows {
  private readonly tables = new Map<string, Table>();
  /** The SQL table of each indexed file and key column. */
  private readonly names = new Map<string, string>();
  private readonly lookups = new Map<string, Map<string, RelatedRow | null>>();

  protected constructor(
    private readonly path: string,
    protected readonly db: Database,
  ) {}

  /** The index `file` describes, read-only: the piece workers of a mapped file look up its related rows themselves. */
  static open(file: RelatedIndexFile): RelatedRowReader {
    let reader = opened.get(file.path);
    if (!reader) {
      const db = openDatabase(file.path, { readOnly: true });
      // A reader reads one piece's keys at a time: a smaller cache than the builder's, measured as fast,
      // keeps each worker's memory down.
      db.exec('PRAGMA cache_size = -4000');
      reader = new RelatedRowReader(file.path, db);
      for (const [key, table] of file.tables) reader.bind(key, table);
      opened.set(file.path, reader);
    }
    return reader;
  }

  /** What `open` needs to read this index from another thread. */
  get file(): RelatedIndexFile {
    return { path: this.path, tables: [...this.names] };
  }

  protected bind(key: string, table: string): void {
    this.names.set(key, table);
    this.tables.set(key, {
      one: arrays<[string, number, string]>(
        this.db.prepare(`SELECT file, line, cells FROM ${table} WHERE key = ? ORDER BY file, line`),
      ),
      many: arrays<[string, string, number, string]>(
        this.db.prepare(
          `SELECT t.key, t.file, t.line, t.cells FROM json_each(?) AS j JOIN ${table} AS t ON ` +
            `t.key = j.value ORDER BY t.key, t.file, t.line`,
        ),
      ),
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
    for (const [key, file, line, cells] of table.many.all(JSON.stringify(keys)))
      batch.get(key)?.push(related(file, line, cells));
    table.batch = batch;
  }

  list(file: string, keyColumn: string, key: string): Iterable<RelatedRow> {
    const fetched = this.table(file, keyColumn).batch?.get(key);
    if (fetched) return fetched;
    return this.statement(file, keyColumn)
      .all(key)
      .map(([file, line, cells]) => related(file, line, cells));
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
    const found = row ? related(...row) : null;
    // Bounded: products and sellers repeat across orders, customers mostly do not.
    if (cache.size >= LOOKUP_CACHE) cache.clear();
    cache.set(key, found);
    return found ?? undefined;
  }

  close(): void {
    this.db.close();
    // This thread's reader of the same file (a small file's pieces staged here) goes with it.
    const reader = opened.get(this.path);
    if (reader && reader !== this) reader.db.close();
    opened.delete(this.path);
  }
}
