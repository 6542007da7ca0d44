import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Issue } from '../core/issue.js';
import type { RawRecord } from '../readers/sourceRecord.js';
import type { Facts, Resource } from '../resources/resource.js';
import { guardDatabase } from './stateErrors.js';
import type { IndexedEvent, IndexedRecord, IndexedTimeline, UnkeyedRecord } from './indexedRecord.js';

const BATCH = 5000;
const OWNER_SEPARATOR = '\u001f';

/** One row of the timelines query, as an array: order id, seq, endpoint, file, index, line, schema valid, hash, facts, owners, body, raw, earlier, issues. */
type EventRow = [
  string, number, string, number, number | null, number | null, number, string, string,
  string | null, string | null, string | null, string | null, string | null,
];

/**
 * The run's records on disk, so that checks across millions of records do not live in memory:
 * a throwaway SQLite file, deleted on close. The RunIndex spills into it past its memory limit.
 */
export class RunIndexFile {
  private readonly db: Database.Database;
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();
  private readonly resources = new Map<string, Resource>();
  private pending: IndexedRecord[] = [];
  private seq = 0;
  private readonly flush: (records: IndexedRecord[]) => void;
  private readonly insertUnkeyed: Database.Statement;

  private constructor(private readonly path: string) {
    this.db = guardDatabase(path, () => new Database(path));
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('temp_store = FILE');
    this.db.pragma('cache_size = -32768');
    // Appended in reading order (no key to keep in order while a backfill is read); sorted once, when read back.
    this.db.exec(`CREATE TABLE events (
      order_id TEXT NOT NULL, seq INTEGER NOT NULL, endpoint TEXT NOT NULL, file INTEGER NOT NULL,
      idx INTEGER, line INTEGER, schema_valid INTEGER NOT NULL, hash TEXT NOT NULL, facts TEXT NOT NULL, claimed_key TEXT,
      body TEXT, raw TEXT, earlier TEXT, issues TEXT
    ); CREATE TABLE claims (claimed_key TEXT NOT NULL, order_id TEXT NOT NULL);
    CREATE TABLE unkeyed (seq INTEGER PRIMARY KEY, endpoint TEXT NOT NULL, file INTEGER NOT NULL, idx INTEGER, line INTEGER, raw TEXT NOT NULL, issues TEXT NOT NULL);`);
    const insert = this.db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertUnkeyed = this.db.prepare('INSERT INTO unkeyed (endpoint, file, idx, line, raw, issues) VALUES (?, ?, ?, ?, ?, ?)');
    const claim = this.db.prepare('INSERT INTO claims VALUES (?, ?)');
    this.flush = this.db.transaction((records: IndexedRecord[]) => {
      for (const r of records) {
        const { facts, resource } = r;
        this.resources.set(resource.name, resource);
        insert.run(facts.orderId, this.seq++, resource.name, this.fileId(r.location.file), r.location.index, r.location.line,
          r.schemaValid ? 1 : 0, r.hash, JSON.stringify(facts), resource.claimedByCreation ? facts.key : null,
          r.body ?? null, r.raw ? JSON.stringify(r.raw) : null, r.earlier ?? null, r.issues ? JSON.stringify(r.issues) : null);
        for (const key of facts.claims ?? []) claim.run(key, facts.orderId);
      }
    });
  }

  /** A run index file in `dir`, under a fresh name. */
  static create(dir: string): RunIndexFile {
    return new RunIndexFile(join(dir, `run-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.sqlite`));
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
    this.pending.push(record);
    if (this.pending.length >= BATCH) this.commit();
  }

  addUnkeyed(record: UnkeyedRecord): void {
    this.resources.set(record.resource.name, record.resource);
    this.insertUnkeyed.run(record.resource.name, this.fileId(record.location.file), record.location.index, record.location.line,
      JSON.stringify(record.raw), JSON.stringify(record.issues));
  }

  *unkeyed(): Generator<UnkeyedRecord> {
    const rows = this.db.prepare('SELECT * FROM unkeyed ORDER BY seq').iterate() as IterableIterator<{ endpoint: string; file: number; idx: number | null; line: number | null; raw: string; issues: string }>;
    for (const row of rows) {
      yield {
        resource: this.resources.get(row.endpoint)!, location: { file: this.files[row.file]!, index: row.idx, line: row.line },
        raw: JSON.parse(row.raw) as RawRecord, issues: JSON.parse(row.issues) as Issue[],
      };
    }
  }

  private commit(): void {
    if (this.pending.length === 0) return;
    this.flush(this.pending);
    this.pending = [];
  }

  /** Every order's records, one order at a time, ordered by order id then reading order. */
  *timelines(): Generator<IndexedTimeline> {
    this.commit();
    this.db.exec('CREATE INDEX IF NOT EXISTS claims_by_key ON claims (claimed_key);');
    // Rows as arrays (raw): no object with named columns per row, read in the column order of `event`.
    const rows = this.db.prepare(`SELECT e.order_id, e.seq, e.endpoint, e.file, e.idx, e.line, e.schema_valid, e.hash, e.facts,
        CASE WHEN e.claimed_key IS NULL THEN NULL
        ELSE (SELECT group_concat(c.order_id, char(31)) FROM claims c WHERE c.claimed_key = e.claimed_key) END AS owners,
        e.body, e.raw, e.earlier, e.issues
      FROM events e ORDER BY e.order_id, e.seq`).raw(true).iterate() as IterableIterator<EventRow>;
    let current: IndexedTimeline | undefined;
    for (const row of rows) {
      if (current && current.orderId !== row[0]) {
        yield current;
        current = undefined;
      }
      current ??= { orderId: row[0], events: [] };
      current.events.push(this.event(row));
    }
    if (current) yield current;
  }

  private event(row: EventRow): IndexedEvent {
    const [, seq, endpoint, file, index, line, schemaValid, hash, facts, owners, body, raw, earlier, issues] = row;
    const event: IndexedEvent = {
      facts: JSON.parse(facts) as Facts,
      resource: this.resources.get(endpoint)!,
      location: { file: this.files[file]!, index, line },
      seq,
      hash,
      schemaValid: schemaValid === 1,
      runOwners: owners === null ? [] : owners.split(OWNER_SEPARATOR),
    };
    if (body !== null) event.body = body;
    if (raw !== null) event.raw = JSON.parse(raw) as RawRecord;
    if (earlier !== null) event.earlier = earlier;
    if (issues !== null) event.issues = JSON.parse(issues) as Issue[];
    return event;
  }

  close(): void {
    this.db.close();
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${this.path}${suffix}`, { force: true });
  }
}
