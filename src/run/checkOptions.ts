import type { Readable } from 'node:stream';
import type { Issue, RecordLocation } from '../core/issue.js';
import type { FlowRule } from '../flow/rules/rule.js';
import type { FlowEvent } from '../flow/timeline.js';
import type { InputSpec } from '../decode/inputSpec.js';
import type { ReadHooks } from '../decode/mappedCsvRecords.js';
import type { RawRecord, ReadLimits } from '../decode/sourceRecord.js';
import type { Resource } from '../resources/resource.js';
import type { RunIndex } from './runIndex/runIndex.js';
import type { RunLedger } from './runLedger.js';
import type { RunState } from '../state/runState.js';

/** One input of a run: what endpoint its records are for, and where to read them. */
export interface RunInput {
  resource: Resource;
  spec: InputSpec;
  /** How this input's rows become records: a mapping entry (--map), a transform (--transform). */
  map?: ReadHooks;
}

/** What a run does with its records once they are judged: send the valid ones, write the invalid ones out. */
export interface RecordSink {
  /** Keep each record's body in the run index (the run sends). */
  needsBodies: boolean;
  /** Keep each record as written (for --rejects). */
  needsRaw: boolean;
  /** An earlier run settled this record (its journal outcome): it will not be sent, so its body need not be kept. */
  alreadyDone(earlier: string | undefined): boolean;
  /**
   * A valid record, in flow order: an order's records together, in reading order; with what an earlier run
   * did with it.
   */
  valid(
    event: FlowEvent,
    body: string | undefined,
    raw: RawRecord | undefined,
    earlier: string | undefined,
  ): Promise<void>;
  /** An invalid record, with every issue that made it so. */
  invalid(
    resource: Resource,
    location: RecordLocation,
    raw: RawRecord | undefined,
    issues: readonly Issue[],
  ): void;
}

export interface CheckRecordsOptions {
  inputs: readonly RunInput[];
  stdin: Readable;
  now: Date;
  /** Where the run's findings go (the report), and the counts it steers by. */
  ledger: RunLedger;
  /** The flow rules the run judges by (what they declare turns the dry-run shortcuts on or off). */
  rules: readonly FlowRule[];
  state: RunState;
  /** Record the run's valid records in the state (a dry run's own namespace). */
  remember: boolean;
  runIndex: RunIndex;
  /** Stop reading after this many invalid records. */
  maxErrors?: number;
  onRecord?: () => void;
  sink?: RecordSink;
  limits?: ReadLimits;
  /** True once the user pressed Ctrl-C: stop reading and sending, keep what was done. */
  shouldStop?: () => boolean;
  /** Aborted on Ctrl-C: a read waiting for input (a FIFO, standard input) ends at once. */
  signal?: AbortSignal;
  /** Whether a record read is this run's at all (--shard): the others are passed over unread. */
  keep?: (resource: Resource, value: unknown) => boolean;
}
