import type { RecordLocation } from '../core/issue.js';
import type { Facts, Resource } from '../resources/resource.js';

/** One record of the run as the flow rules see it. */
export interface FlowEvent {
  facts: Facts;
  resource: Resource;
  location: RecordLocation;
  /** Position in the run's reading order. */
  seq: number;
  /** Content hash of the record (see contentHash). */
  hash: string;
  /** The record passed its schema; a flow error then turns it invalid. */
  schemaValid: boolean;
  /** For a record that failed its schema: the code of its first error (named by the records of its order). */
  fault?: string;
  /** The same record (same endpoint and content) is already in the state: a re-run, not a repeat. */
  replay: boolean;
  /**
   * For a record whose key creations claim (a delivery): the orders whose creations claim it, in the run and
   * the state.
   */
  owners?: string[];
}

/** What earlier runs recorded about an order (the state). */
export interface PriorOrder {
  /** An earlier run created the order (false: only fraud marks were recorded for it). */
  created: boolean;
  hash: string;
  evaluate: boolean;
  /** The service's evaluation decision (`approve`, `reject`, ...), when it gave one. */
  decision: string | null;
  lastStatus: string | null;
  /** Payment id -> acquirer id sent at creation (null when none was). */
  payments: Record<string, string | null>;
  deliveryIds: string[];
  fraudTypes: string[];
  /** The rows of the tables resources declare (RememberedTable), by table, each a column -> value object. */
  rows?: Record<string, Record<string, string | null>[]>;
}

/** Everything about one order: what the state knows and this run's records for it, in reading order. */
export interface OrderTimeline {
  orderId: string;
  prior: PriorOrder | null;
  events: FlowEvent[];
}

/** What the run knows at all: rules that need knowledge it lacks are skipped, with a note. */
/** Whether an earlier rule (or the record's schema) found an error in a record of the timeline. */
export type Faulted = (event: FlowEvent) => boolean;

export interface Knowledge {
  /** Some order creation is in the run or the state. */
  creations: boolean;
}

export interface RuleHit {
  event: FlowEvent;
  code: string;
  /** Set when a rule reports at two severities (an identical repeat is only a warning). */
  severity?: 'error' | 'warning';
  message: string;
  path: string;
  hint: string;
  value?: unknown;
  /** An identical repeat of a record the run sends anyway: this one is not sent again. */
  repeat?: true;
}

/** A rule that could not judge some records, said once in the report. */
export interface RuleSkip {
  code: string;
  reason: string;
}
