import type { RunState } from '../state/runState.js';
import type { Remembered } from '../state/remembered.js';

/** How long an answer may wait for others to share its commit when fewer than `window` come. */
const LINGER_MS = 5;

/**
 * The kill -9 guarantee of a sending run, in one place: **at most `window` answers that are not
 * yet durable have their request's slot free again.** Answers go to the state's `remember` in
 * groups of `window` (one transaction each: its cost is mostly per group), or after LINGER_MS, or
 * at once when every slot waits; a full group at the end of the turn (setImmediate), once the
 * requests this turn started are written. `commit` returns nothing while at most `window` answers
 * are not yet durable; past that (a remote state still committing) it returns a promise the sender
 * awaits before it frees the slot. So a kill loses at most the answers in flight and `window` more:
 * with `window` = the concurrency, a re-run sends at most twice the concurrency again, never a
 * record the state says was accepted. A failed commit rejects the waiting answers and every later
 * one, which stops the sender; `throwIfFailed` surfaces it once sending is drained.
 */
export class DurableOutcomes {
  private pending: Remembered[] = [];
  /** Slots held back, first come first freed: their answers are not counted as free. */
  private waiting: { resolve: () => void; reject: (cause: unknown) => void }[] = [];
  private lingering: NodeJS.Timeout | undefined;
  private full: NodeJS.Immediate | undefined;
  private failure: { cause: unknown } | undefined;
  /** Answers taken and not yet durable: pending, or written but not yet committed by a remote state. */
  private undurable = 0;

  constructor(
    private readonly state: RunState,
    private readonly now: () => Date,
    private readonly window = 8,
  ) {}

  /** Answers not yet durable whose slot is free again: never more than `window`. */
  private get free(): number {
    return this.undurable - this.waiting.length;
  }

  /**
   * Journals one answer; returns a promise to await before reusing its slot when too many answers are not yet
   * durable.
   */
  commit = (record: Remembered): Promise<void> | undefined => {
    if (this.failure) return Promise.reject(this.failure.cause);
    this.pending.push(record);
    this.undurable++;
    if (this.pending.length >= this.window) this.full ??= setImmediate(() => this.flush());
    else this.lingering ??= setTimeout(() => this.flush(), LINGER_MS);
    if (this.free <= this.window) return undefined;
    return new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
  };

  /** Every slot waits: commit what is pending now rather than after LINGER_MS. */
  onStall = (): void => this.flush();

  /** How many answers are not yet durable. */
  get backlog(): number {
    return this.pending.length;
  }

  /** Throws the failure of a commit, if one failed (no slot may have been waiting for it). */
  throwIfFailed(): void {
    if (this.failure) throw this.failure.cause;
  }

  flush(): void {
    clearTimeout(this.lingering);
    clearImmediate(this.full);
    this.lingering = undefined;
    this.full = undefined;
    if (this.pending.length === 0) return;
    const group = this.pending;
    this.pending = [];
    // Never throws (it runs in the background): a failed commit rejects the waiting slots and every later
    // commit, which stops the sender.
    try {
      this.state.remember(group, this.now());
    } catch (cause) {
      this.fail(cause);
      return;
    }
    // A remote state holds the group once its database committed it; an embedded one at once.
    this.state.durable().then(
      () => {
        this.undurable -= group.length;
        while (this.waiting.length > 0 && this.free + 1 <= this.window) this.waiting.shift()!.resolve();
      },
      (cause: unknown) => this.fail(cause),
    );
  }

  private fail(cause: unknown): void {
    this.failure ??= { cause };
    const waiting = this.waiting;
    this.waiting = [];
    for (const { reject } of waiting) reject(cause);
  }
}
