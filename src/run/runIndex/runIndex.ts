import type { Resource } from '../../resources/resource.js';
import type { IndexedEvent, IndexedRecord, IndexedTimeline, UnkeyedRecord } from './indexedRecord.js';
import { RunIndexFile } from './runIndexFile.js';

export type { IndexedEvent, IndexedRecord, IndexedTimeline, UnkeyedRecord } from './indexedRecord.js';

/**
 * The run's records, grouped by order for the flow rules. Held in memory up to `limit` records,
 * then moved to a throwaway file in `dir`: small runs stay fast, large ones keep memory bounded.
 */
export class RunIndex {
  /** The endpoints whose records the run holds. */
  readonly resources = new Set<Resource>();
  hasCreations = false;
  private orders: Map<string, IndexedEvent[]> | undefined = new Map();
  private readonly claimants = new Map<string, string[]>();
  private others: UnkeyedRecord[] = [];
  private file: RunIndexFile | undefined;
  private count = 0;
  private seq = 0;

  /** `dir`: the folder of the file, or how to make it (a run's scratch, made only when a run spills). */
  constructor(
    private readonly dir: string | (() => string),
    private readonly limit = 50_000,
  ) {}

  add(record: IndexedRecord): void {
    this.resources.add(record.resource);
    if (record.resource.role === 'creation') this.hasCreations = true;
    if (this.orders && ++this.count > this.limit) this.spill();
    if (this.file) return this.file.add(record);
    for (const key of record.facts.claims ?? []) {
      const list = this.claimants.get(key);
      if (list) list.push(record.facts.orderId);
      else this.claimants.set(key, [record.facts.orderId]);
    }
    const { facts, resource, location, hash, schemaValid, body, raw, earlier, issues, remembered, fault } =
      record;
    const event: IndexedEvent = {
      facts,
      resource,
      location,
      seq: this.seq++,
      hash,
      schemaValid,
      runOwners: [],
      ...(body === undefined ? {} : { body }),
      ...(raw === undefined ? {} : { raw }),
      ...(earlier === undefined ? {} : { earlier }),
      ...(issues === undefined ? {} : { issues }),
      ...(remembered ? { remembered } : {}),
      ...(fault === undefined ? {} : { fault }),
    };
    const list = this.orders!.get(facts.orderId);
    if (list) list.push(event);
    else this.orders!.set(facts.orderId, [event]);
  }

  addUnkeyed(record: UnkeyedRecord): void {
    if (this.orders && ++this.count > this.limit) this.spill();
    if (this.file) this.file.addUnkeyed(record);
    else this.others.push(record);
  }

  /** Moves what memory holds to the file, in reading order, and keeps adding there. */
  private spill(): void {
    const events = [...this.orders!.values()].flat().sort((a, b) => a.seq - b.seq);
    this.file = RunIndexFile.create(typeof this.dir === 'string' ? this.dir : this.dir());
    for (const { seq: _seq, runOwners: _owners, ...record } of events) this.file.add(record);
    for (const record of this.others) this.file.addUnkeyed(record);
    this.orders = undefined;
    this.others = [];
    this.claimants.clear();
  }

  /** Every order's records, one order at a time, in reading order within each. */
  *timelines(): Generator<IndexedTimeline> {
    if (this.file) {
      yield* this.file.timelines();
      return;
    }
    for (const [orderId, events] of this.orders!) {
      for (const event of events)
        if (event.resource.claimedByCreation) event.runOwners = this.claimants.get(event.facts.key) ?? [];
      yield { orderId, events };
    }
  }

  unkeyed(): Iterable<UnkeyedRecord> {
    return this.file ? this.file.unkeyed() : this.others;
  }

  close(): void {
    this.file?.close();
  }
}
