import type { Issue, RecordLocation } from '../../core/issue.js';
import type { FlowEvent } from '../../flow/timeline.js';
import type { RawRecord } from '../../decode/sourceRecord.js';
import type { Facts, Resource } from '../../resources/resource.js';

/** One record of the run, as pass 1 leaves it for the flow rules and the sending. */
export interface IndexedRecord {
  facts: Facts;
  resource: Resource;
  location: RecordLocation;
  hash: string;
  schemaValid: boolean;
  /** The request body, kept when the run sends. */
  body?: string;
  /** The record as written, kept for --rejects. */
  raw?: RawRecord;
  /** What an earlier run did with the same record (the state's journal), looked up once. */
  earlier?: string;
  /** Its schema errors, kept for the reason in --rejects. */
  issues?: readonly Issue[];
  /** For a record that failed its schema: its first error's code. */
  fault?: string;
  /** Remembered in the state as it was read (earlyCreations.ts): the state knew nothing of its order before the run. */
  remembered?: true;
}

export type IndexedEvent = Omit<FlowEvent, 'replay' | 'owners'> & {
  runOwners: string[];
  body?: string;
  raw?: RawRecord;
  earlier?: string;
  issues?: readonly Issue[];
  remembered?: true;
};

/** The records of one order in reading order, with the run's owners of each claimed key. */
export interface IndexedTimeline {
  orderId: string;
  events: IndexedEvent[];
}

/** A record without the ids the flow rules key on (always invalid), kept for --rejects. */
export interface UnkeyedRecord {
  resource: Resource;
  location: RecordLocation;
  raw: RawRecord;
  issues: readonly Issue[];
}
