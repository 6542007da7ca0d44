import type { Facts } from '../flow/facts.js';
import type { IndexedEvent, IndexedRecord, IndexedTimeline, RunIndex, UnkeyedRecord } from './runIndex.js';
import { SqliteRunIndex } from './runIndex.js';

/** A run index in memory: for runs small enough that SQLite would only slow them down. */
export class MemoryRunIndex implements RunIndex {
  readonly kinds = new Set<Facts['kind']>();
  hasCreations = false;
  private readonly orders = new Map<string, IndexedEvent[]>();
  private readonly owners = new Map<string, string[]>();
  private readonly others: UnkeyedRecord[] = [];
  private seq = 0;

  add(record: IndexedRecord): void {
    const { facts } = record;
    this.kinds.add(facts.kind);
    if (facts.kind === 'order') {
      this.hasCreations = true;
      for (const id of facts.deliveryIds) {
        const list = this.owners.get(id);
        if (list) list.push(facts.orderId);
        else this.owners.set(id, [facts.orderId]);
      }
    }
    const event: IndexedEvent = {
      facts, endpoint: record.endpoint, location: record.location, seq: this.seq++, hash: record.hash, schemaValid: record.schemaValid, runOwners: [],
      ...(record.body === undefined ? {} : { body: record.body }), ...(record.raw === undefined ? {} : { raw: record.raw }),
      ...(record.earlier === undefined ? {} : { earlier: record.earlier }),
    };
    const list = this.orders.get(facts.orderId);
    if (list) list.push(event);
    else this.orders.set(facts.orderId, [event]);
  }

  addUnkeyed(record: UnkeyedRecord): void {
    this.others.push(record);
  }

  *timelines(): Generator<IndexedTimeline> {
    for (const [orderId, events] of this.orders) {
      for (const event of events) if (event.facts.kind === 'delivery') event.runOwners = this.owners.get(event.facts.deliveryId) ?? [];
      yield { orderId, events };
    }
  }

  unkeyed(): Iterable<UnkeyedRecord> {
    return this.others;
  }

  /** The records again, in reading order (for a spill to disk), derived from the grouped events. */
  recordsInReadingOrder(): IndexedRecord[] {
    const events = [...this.orders.values()].flat().sort((a, b) => a.seq - b.seq);
    return events.map(({ facts, endpoint, location, hash, schemaValid, body, raw, earlier }) => ({
      facts, endpoint, location, hash, schemaValid,
      ...(body === undefined ? {} : { body }), ...(raw === undefined ? {} : { raw }), ...(earlier === undefined ? {} : { earlier }),
    }));
  }

  close(): void {}
}

/**
 * Starts in memory and moves to a SQLite file in `dir` once the run holds more than
 * `limit` records, so small runs stay fast and large ones keep memory bounded.
 */
export class SpillingRunIndex implements RunIndex {
  private memory: MemoryRunIndex | undefined = new MemoryRunIndex();
  private disk: SqliteRunIndex | undefined;
  private count = 0;

  constructor(private readonly dir: string, private readonly limit = 50_000) {}

  private get active(): RunIndex {
    return (this.disk ?? this.memory)!;
  }

  get kinds() {
    return this.active.kinds;
  }

  get hasCreations() {
    return this.active.hasCreations;
  }

  add(record: IndexedRecord): void {
    if (this.memory && ++this.count > this.limit) this.spill();
    this.active.add(record);
  }

  addUnkeyed(record: UnkeyedRecord): void {
    if (this.memory && ++this.count > this.limit) this.spill();
    this.active.addUnkeyed(record);
  }

  private spill(): void {
    const memory = this.memory!;
    this.disk = SqliteRunIndex.create(this.dir);
    for (const record of memory.recordsInReadingOrder()) this.disk.add(record);
    for (const record of memory.unkeyed()) this.disk.addUnkeyed(record);
    this.memory = undefined;
  }

  timelines(): Iterable<IndexedTimeline> {
    return this.active.timelines();
  }

  unkeyed(): Iterable<UnkeyedRecord> {
    return this.active.unkeyed();
  }

  close(): void {
    this.disk?.close();
  }
}
