import type { PriorOrder } from '../flow/timeline.js';
import type { Outcome } from './compactRows.js';
import type { Remembered } from './remembered.js';
import type { RunScratch } from './runScratch.js';

/** A payment whose acquirer id (the payment update's, else the creation's) is one asked for. */
export interface AcquirerOwner {
  acquirerId: string;
  orderId: string;
  paymentId: string;
}

/** One shard of a run: `index` of `count` (0-based). */
export interface Shard {
  index: number;
  count: number;
}

export interface LockRequest {
  /** The state, named in messages. */
  where: string;
  shard?: Shard;
  /** How long to wait for another run to finish (0: refuse at once). */
  waitMs: number;
  /** The command line, shown to a run that finds the lock held. */
  command: string;
}

/** A lock a run holds on its state until it releases it. */
export interface HeldLock {
  release(): void | Promise<void>;
}

/**
 * What a run knows of its state, whichever backend keeps it (sqlite/, postgres/; openState.ts
 * picks one). Reads see every write made before them by this run or an earlier one: a record's
 * journal outcome, an order's prior facts, the claimants of a key.
 */
export interface RunState {
  /** Where the state is, for messages (null: in memory). */
  readonly location: string | null;
  /** Takes the run's lock, then reads what the state holds afresh: a run that waited sees what the other wrote. */
  lock(request: LockRequest): Promise<HeldLock>;
  /** The run's folder of throwaway files: beside a state folder (swept by the next run), else in `tempDir`. */
  scratch(tempDir: string): RunScratch;
  /** Some order was created in an earlier run. */
  readonly hasOrders: boolean;
  /** What the state knows of one order (null: nothing). */
  priorOrder(orderId: string): PriorOrder | null;
  /** The orders whose creations claimed a key (a delivery id), in earlier runs. */
  claimants(key: string): string[];
  /**
   * The payments carrying these acquirer ids, in one pass over the state's payments (memory: the answer, not
   * the state).
   */
  acquirerOwners(acquirerIds: ReadonlySet<string>): Promise<AcquirerOwner[]>;
  /**
   * The orders whose card payments hold each card key (last four digits, value in cents, UTC date of the
   * order), through their index; `tuple` is the key's position in `cards`.
   */
  ordersByCard(cards: readonly (readonly string[])[]): Promise<{ tuple: number; orderId: string }[]>;
  /** What became of the same record (same endpoint and content) in an earlier run, if it was seen. */
  journalOutcome(hash: string): Outcome | undefined;
  /** Records what the service now knows, in one transaction: kept for good once `durable()` resolves. */
  remember(records: readonly Remembered[], now: Date): void;
  /** Resolves once everything remembered so far is kept for good. */
  durable(): Promise<void>;
  /** The state's database failed during the run (a remote one): sending stops. */
  readonly failed: boolean;
  /** Evaluation decisions the service made outside collect (`collect decisions`). */
  rememberDecisions(
    decisions: readonly { orderId: string; decision: string }[],
    source: string,
    now: Date,
  ): void;
  /** One decision made outside collect (tests, and the analyst's single order). */
  rememberDecision(orderId: string, decision: string, now?: Date): void;
  /**
   * Reads afresh which tables hold anything, so later reads see this process's own writes to a state empty at
   * start (a relay).
   */
  recount?(): void;
  /** Reads afresh what other processes wrote since (a remote state's copy; a relay replica taking over orders). */
  refresh?(): Promise<void>;
  close(): void | Promise<void>;
}
