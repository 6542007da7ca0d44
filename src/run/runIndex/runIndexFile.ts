import { join } from 'node:path';
import type { Issue } from '../../core/issue.js';
import type { RawRecord } from '../../decode/sourceRecord.js';
import type { Facts, Resource } from '../../resources/resource.js';
import { ChunkFile } from './chunkFile.js';
import { ClaimsTable } from '../../state/claimsTable.js';
import type { IndexedEvent, IndexedRecord, IndexedTimeline, UnkeyedRecord } from './indexedRecord.js';

/**
 * Orders are spread over this many buckets by their id: reading one back holds about 1/BUCKETS of the run in
 * memory.
 */
const BUCKETS = 256;
/**
 * The buckets of the records without keys, and of the claims of creations (delivery ids), after the orders'
 * buckets.
 */
const UNKEYED = BUCKETS;
const CLAIMS = BUCKETS + 1;

/**
 * One record as written, a JSON array: order id, seq, endpoint, file, index, line, schema valid, hash, facts,
 * body, raw, earlier, issues, remembered, fault.
 */
type EventRow = [
  string,
  number,
  number,
  number,
  number | null,
  number | null,
  0 | 1,
  string,
  Facts,
  string | null,
  RawRecord | null,
  string | null,
  readonly Issue[] | null,
  0 | 1,
  string | null,
];
/** A record without keys as written: endpoint, file, index, line, raw, issues. */
type UnkeyedRow = [number, number, number | null, number | null, RawRecord, readonly Issue[]];

/** FNV-1a of an order id: which bucket holds its records. */
function bucketOf(orderId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < orderId.length; i++) hash = Math.imul(hash ^ orderId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % BUCKETS;
}

/** The JSON texts appended to a bucket (each followed by a comma) as one array. */
const parseRows = <T>(text: string): T[] =>
  text === '' ? [] : (JSON.parse(`[${text.slice(0, -1)}]`) as T[]);

/** Numbers each distinct value by its first appearance, so that a record stores a small id, not the value. */
class Interner<T> {
  readonly values: T[] = [];
  private readonly ids = new Map<T, number>();

  id(value: T): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.push(value) - 1;
      this.ids.set(value, id);
    }
    return id;
  }
}

/**
 * The run's records on disk, so that checks across millions of records do not live in memory:
 * a throwaway file, deleted on close, where each record is one JSON text appended to the bucket
 * of its order id (chunkFile.ts). The RunIndex spills into it past its memory limit. Reading an
 * order's records back reads its bucket: the orders of a bucket come together, in reading order.
 */
export class RunIndexFile {
  private readonly chunks: ChunkFile;
  private readonly files = new Interner<string>();
  private readonly resources = new Interner<Resource>();
  private seq = 0;
  /** Whether a record whose key creations claim was added: only then are the claims looked up. */
  private claimed = false;
  private claims: ClaimsTable | undefined;

  private constructor(
    private readonly dir: string,
    path: string,
  ) {
    this.chunks = new ChunkFile(path, BUCKETS + 2);
  }

  /** A run index file in `dir`, under a fresh name. */
  static create(dir: string): RunIndexFile {
    return new RunIndexFile(
      dir,
      join(dir, `run-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.jsonl`),
    );
  }

  add(r: IndexedRecord): void {
    const { facts, resource, location } = r;
    if (resource.claimedByCreation) this.claimed = true;
    const row: EventRow = [
      facts.orderId,
      this.seq++,
      this.resources.id(resource),
      this.files.id(location.file),
      location.index,
      location.line,
      r.schemaValid ? 1 : 0,
      r.hash,
      facts,
      r.body ?? null,
      r.raw ?? null,
      r.earlier ?? null,
      r.issues ?? null,
      r.remembered ? 1 : 0,
      r.fault ?? null,
    ];
    this.chunks.append(bucketOf(facts.orderId), `${JSON.stringify(row)},`);
    if (facts.claims && facts.claims.length > 0)
      this.chunks.append(CLAIMS, `${JSON.stringify([facts.orderId, facts.claims])},`);
  }

  addUnkeyed(record: UnkeyedRecord): void {
    const { location } = record;
    const row: UnkeyedRow = [
      this.resources.id(record.resource),
      this.files.id(location.file),
      location.index,
      location.line,
      record.raw,
      record.issues,
    ];
    this.chunks.append(UNKEYED, `${JSON.stringify(row)},`);
  }

  *unkeyed(): Generator<UnkeyedRecord> {
    for (const chunk of this.chunks.chunksOf(UNKEYED)) {
      for (const [resource, file, index, line, raw, issues] of parseRows<UnkeyedRow>(chunk)) {
        yield {
          resource: this.resources.values[resource]!,
          location: { file: this.files.values[file]!, index, line },
          raw,
          issues,
        };
      }
    }
  }

  private *claimsRead(): Generator<[string, string[]]> {
    for (const chunk of this.chunks.chunksOf(CLAIMS)) yield* parseRows<[string, string[]]>(chunk);
  }

  /** Every order's records, one order at a time, in reading order within each; the orders bucket by bucket. */
  *timelines(): Generator<IndexedTimeline> {
    // The run's owners of a claimed key are looked up only when such a record was read (a delivery).
    if (this.claimed && !this.claims) this.claims = ClaimsTable.build(this.dir, this.claimsRead());
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      const orders = new Map<string, IndexedEvent[]>();
      for (const row of parseRows<EventRow>(this.chunks.read(bucket))) {
        const event = this.event(row);
        const list = orders.get(row[0]);
        if (list) list.push(event);
        else orders.set(row[0], [event]);
      }
      for (const [orderId, events] of orders) yield { orderId, events };
    }
  }

  private event(row: EventRow): IndexedEvent {
    const [
      ,
      seq,
      resource,
      file,
      index,
      line,
      schemaValid,
      hash,
      facts,
      body,
      raw,
      earlier,
      issues,
      remembered,
      fault,
    ] = row;
    const event: IndexedEvent = {
      facts,
      resource: this.resources.values[resource]!,
      location: { file: this.files.values[file]!, index, line },
      seq,
      hash,
      schemaValid: schemaValid === 1,
      runOwners:
        this.claims && this.resources.values[resource]!.claimedByCreation
          ? this.claims.owners(facts.key)
          : [],
    };
    if (body !== null) event.body = body;
    if (raw !== null) event.raw = raw;
    if (earlier !== null) event.earlier = earlier;
    if (issues !== null) event.issues = issues;
    if (remembered === 1) event.remembered = true;
    if (fault !== null) event.fault = fault;
    return event;
  }

  close(): void {
    this.claims?.close();
    this.chunks.close();
  }
}
