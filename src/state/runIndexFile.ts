import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordLocation } from '../core/issue.js';
import type { Facts } from '../flow/facts.js';
import type { FlowEvent } from '../flow/timeline.js';
import type { RawRecord } from '../readers/sourceRecord.js';
import type { EndpointName } from '../resources/resource.js';

export interface IndexedRecord {
  facts: Facts;
  endpoint: EndpointName;
  location: RecordLocation;
  hash: string;
  schemaValid: boolean;
  /** The request body, kept when the run sends. */
  body?: string;
  /** The record as written, kept for --rejects. */
  raw?: RawRecord;
  /** What an earlier run did with the same record (the state's journal), looked up once. */
  earlier?: string;
}

export type IndexedEvent = Omit<FlowEvent, 'replay' | 'deliveryOwners'> & { runOwners: string[]; body?: string; raw?: RawRecord; earlier?: string };

/** The records of one order in reading order, with the run's owners of each delivery id. */
export interface IndexedTimeline {
  orderId: string;
  events: IndexedEvent[];
}

/** A record without the ids the flow rules key on (always invalid), kept for --rejects. */
export interface UnkeyedRecord {
  endpoint: EndpointName;
  location: RecordLocation;
  raw: RawRecord;
}

const BATCH = 5000;
const OWNER_SEPARATOR = '\u001f';

/** The run's records, grouped by order for the flow rules. */
export interface RunIndex {
  readonly kinds: ReadonlySet<Facts['kind']>;
  readonly hasCreations: boolean;
  add(record: IndexedRecord): void;
  addUnkeyed(record: UnkeyedRecord): void;
  timelines(): Iterable<IndexedTimeline>;
  unkeyed(): Iterable<UnkeyedRecord>;
  close(): void;
}

/**
 * The run's own records on disk, so that checks across millions of records do not live in memory:
 * a throwaway SQLite file next to the state, deleted on close.
 */
export class SqliteRunIndex implements RunIndex {
  private readonly db: Database.Database;
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();
  private pending: IndexedRecord[] = [];
  private seq = 0;
  private creations = false;
  readonly kinds = new Set<Facts['kind']>();
  private readonly flush: (records: IndexedRecord[]) => void;
  private readonly insertUnkeyed: Database.Statement;

  constructor(private readonly path: string | null) {
    this.db = new Database(path ?? ':memory:');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('temp_store = FILE');
    this.db.pragma('cache_size = -32768');
    // Keyed by (order_id, seq): the table itself is in timeline order, read back with one scan.
    this.db.exec(`CREATE TABLE events (
      order_id TEXT NOT NULL, seq INTEGER NOT NULL, endpoint TEXT NOT NULL, file INTEGER NOT NULL,
      idx INTEGER, line INTEGER, schema_valid INTEGER NOT NULL, hash TEXT NOT NULL, facts TEXT NOT NULL, delivery_id TEXT,
      body TEXT, raw TEXT, earlier TEXT, PRIMARY KEY (order_id, seq)
    ) WITHOUT ROWID; CREATE TABLE deliveries (delivery_id TEXT NOT NULL, order_id TEXT NOT NULL);
    CREATE TABLE unkeyed (seq INTEGER PRIMARY KEY, endpoint TEXT NOT NULL, file INTEGER NOT NULL, idx INTEGER, line INTEGER, raw TEXT NOT NULL);`);
    const insert = this.db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertUnkeyed = this.db.prepare('INSERT INTO unkeyed (endpoint, file, idx, line, raw) VALUES (?, ?, ?, ?, ?)');
    const owner = this.db.prepare('INSERT INTO deliveries VALUES (?, ?)');
    this.flush = this.db.transaction((records: IndexedRecord[]) => {
      for (const r of records) {
        const { facts } = r;
        insert.run(facts.orderId, this.seq++, r.endpoint, this.fileId(r.location.file), r.location.index, r.location.line,
          r.schemaValid ? 1 : 0, r.hash, JSON.stringify(facts), facts.kind === 'delivery' ? facts.deliveryId : null,
          r.body ?? null, r.raw ? JSON.stringify(r.raw) : null, r.earlier ?? null);
        if (facts.kind === 'order') for (const id of facts.deliveryIds) owner.run(id, facts.orderId);
      }
    });
  }

  /** A run index in a fresh file of `dir`, deleted on close. */
  static create(dir: string): SqliteRunIndex {
    return new SqliteRunIndex(join(dir, `run-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.sqlite`));
  }

  private fileId(file: string): number {
    let id = this.fileIds.get(file);
    if (id === undefined) {
      id = this.files.push(file) - 1;
      this.fileIds.set(file, id);
    }
    return id;
  }

  add(record: IndexedRecord): void {
    this.kinds.add(record.facts.kind);
    if (record.facts.kind === 'order') this.creations = true;
    this.pending.push(record);
    if (this.pending.length >= BATCH) this.commit();
  }

  addUnkeyed(record: UnkeyedRecord): void {
    this.insertUnkeyed.run(record.endpoint, this.fileId(record.location.file), record.location.index, record.location.line, JSON.stringify(record.raw));
  }

  *unkeyed(): Generator<UnkeyedRecord> {
    const rows = this.db.prepare('SELECT * FROM unkeyed ORDER BY seq').iterate() as IterableIterator<{ endpoint: EndpointName; file: number; idx: number | null; line: number | null; raw: string }>;
    for (const row of rows) yield { endpoint: row.endpoint, location: { file: this.files[row.file]!, index: row.idx, line: row.line }, raw: JSON.parse(row.raw) as RawRecord };
  }

  private commit(): void {
    if (this.pending.length === 0) return;
    this.flush(this.pending);
    this.pending = [];
  }

  get hasCreations(): boolean {
    return this.creations;
  }

  /** Every order's records, one order at a time, ordered by order id then reading order. */
  *timelines(): Generator<IndexedTimeline> {
    this.commit();
    this.db.exec('CREATE INDEX IF NOT EXISTS deliveries_by_id ON deliveries (delivery_id);');
    const rows = this.db.prepare(`SELECT e.*, CASE WHEN e.delivery_id IS NULL THEN NULL
        ELSE (SELECT group_concat(d.order_id, char(31)) FROM deliveries d WHERE d.delivery_id = e.delivery_id) END AS owners
      FROM events e ORDER BY e.order_id, e.seq`).iterate() as IterableIterator<{
      seq: number; order_id: string; endpoint: EndpointName; file: number; idx: number | null; line: number | null;
      schema_valid: number; hash: string; facts: string; owners: string | null; body: string | null; raw: string | null; earlier: string | null;
    }>;
    let current: IndexedTimeline | undefined;
    for (const row of rows) {
      if (current && current.orderId !== row.order_id) {
        yield current;
        current = undefined;
      }
      current ??= { orderId: row.order_id, events: [] };
      current.events.push({
        facts: JSON.parse(row.facts) as Facts,
        endpoint: row.endpoint,
        location: { file: this.files[row.file]!, index: row.idx, line: row.line },
        seq: row.seq,
        hash: row.hash,
        schemaValid: row.schema_valid === 1,
        runOwners: row.owners === null ? [] : row.owners.split(OWNER_SEPARATOR),
        ...(row.body === null ? {} : { body: row.body }),
        ...(row.raw === null ? {} : { raw: JSON.parse(row.raw) as RawRecord }),
        ...(row.earlier === null ? {} : { earlier: row.earlier }),
      });
    }
    if (current) yield current;
  }

  close(): void {
    this.db.close();
    if (this.path) for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${this.path}${suffix}`, { force: true });
  }
}
