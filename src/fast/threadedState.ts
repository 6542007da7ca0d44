import type { PriorOrder } from '../flow/timeline.js';
import { outcomeCode, unixSeconds, type Outcome } from '../state/compactRows.js';
import type { Remembered } from '../state/remembered.js';
import type { AcquirerOwner, HeldLock, LockRequest, RunState } from '../state/runState.js';
import type { RunScratch } from '../state/runScratch.js';
import { SqliteState } from '../state/sqlite/sqliteState.js';
import { StateError, stateError } from '../state/stateErrors.js';
import { fastPaths } from './fastPaths.js';
import { listLaterWrites } from './laterWrites.js';
import { StateWriterThread, type PendingKind } from './stateWriterThread.js';

/**
 * A dry run's state whose `remember` is committed on the writer thread while the run goes on (the
 * fast twin of remembering at once): a read first waits for the batches that write its key
 * (`settle`), any other write, the lock's release, `durable()` and `close()` for all of them (`drain`).
 * Only a SQLite state file the run may write is wrapped; the state is returned as it is otherwise.
 */
export function rememberOnThread(state: RunState): RunState {
  if (!fastPaths || !(state instanceof SqliteState) || state.path === null || state.readOnly) return state;
  return new ThreadedState(state, state.path);
}

class ThreadedState implements RunState {
  /** Started at the first batch remembered. */
  private writer: StateWriterThread | undefined;

  constructor(
    private readonly state: SqliteState,
    private readonly path: string,
  ) {}

  get location(): string | null {
    return this.state.location;
  }

  get hasOrders(): boolean {
    return this.state.hasOrders;
  }

  get failed(): boolean {
    return this.state.failed;
  }

  async lock(request: LockRequest): Promise<HeldLock> {
    const held = await this.state.lock(request);
    return {
      release: () => {
        try {
          // What this run listed is committed under its lock.
          this.drain();
        } catch (cause) {
          void held.release();
          throw cause;
        }
        return held.release();
      },
    };
  }

  scratch(tempDir: string): RunScratch {
    return this.state.scratch(tempDir);
  }

  priorOrder(orderId: string): PriorOrder | null {
    this.settle('order', orderId);
    return this.state.priorOrder(orderId);
  }

  claimants(key: string): string[] {
    this.settle('claim', key);
    return this.state.claimants(key);
  }

  acquirerOwners(acquirerIds: ReadonlySet<string>): Promise<AcquirerOwner[]> {
    this.drain();
    return this.state.acquirerOwners(acquirerIds);
  }

  ordersByCard(cards: readonly (readonly string[])[]): Promise<{ tuple: number; orderId: string }[]> {
    this.drain();
    return this.state.ordersByCard(cards);
  }

  journalOutcome(hash: string): Outcome | undefined {
    this.settle('hash', hash);
    return this.state.journalOutcome(hash);
  }

  /** Listed for the writer thread, which commits it in one transaction while the run goes on. */
  remember(records: readonly Remembered[], now: Date): void {
    if (records.length === 0) return;
    this.state.assertHeld();
    this.writer ??= StateWriterThread.start(this.path, this.state.tablesRead());
    const writer = this.writer;
    this.guard(() => {
      listLaterWrites(writer, records, unixSeconds(now), outcomeCode);
      writer.send();
    });
  }

  durable(): Promise<void> {
    try {
      this.drain();
    } catch (cause) {
      return Promise.reject(cause as Error);
    }
    return this.state.durable();
  }

  rememberDecisions(
    decisions: readonly { orderId: string; decision: string }[],
    source: string,
    now: Date,
  ): void {
    this.drain();
    this.state.rememberDecisions(decisions, source, now);
  }

  rememberDecision(orderId: string, decision: string, now?: Date): void {
    this.drain();
    this.state.rememberDecision(orderId, decision, now);
  }

  recount(): void {
    this.drain();
    this.state.recount();
  }

  close(): void {
    const writer = this.writer;
    this.writer = undefined;
    try {
      if (writer) this.guard(() => writer.close());
    } finally {
      this.state.close();
    }
  }

  /** Waits for the writer thread's batches that write `key`: a read sees what running them at once would leave. */
  private settle(kind: PendingKind, key: string): void {
    const writer = this.writer;
    if (writer) this.guard(() => writer.settle(kind, key));
  }

  /** Waits until the writer thread committed everything: the state's own connection then writes after it. */
  private drain(): void {
    const writer = this.writer;
    if (writer) this.guard(() => writer.drain());
  }

  /** A failure of the writer thread as a StateError naming the file. */
  private guard(operation: () => void): void {
    try {
      operation();
    } catch (cause) {
      throw (
        stateError(cause, this.path) ??
        new StateError(
          `cannot write the state file ${this.path} (${(cause as Error).message})`,
          'check the disk and the folder, or use another --state folder, then run the same command again',
        )
      );
    }
  }
}
