import type { Remembered, StateStore } from '../state/stateStore.js';

/**
 * The kill -9 guarantee of a sending run, in one place: **at most `window` answers that are not
 * yet durable have their request's slot free again.** Answers are committed to the state in the
 * background, every answer that came in one turn of the event loop in one transaction (WAL,
 * synchronous=NORMAL: a committed transaction survives the process being killed). `commit`
 * returns nothing while fewer than `window` answers wait (the slot goes on at once, no lock-step);
 * past that it returns a promise that the sender awaits before it frees the slot (Sender's
 * `onOutcome`), resolved once the group is written. So a kill loses at most the answers of the
 * requests in flight (the concurrency) and `window` more: with `window` = the concurrency, a re-run
 * sends at most twice the concurrency again, never a record the state says was accepted.
 * A commit that fails (a full disk) rejects the answers waiting for it and every later one, which
 * stops the sender; `throwIfFailed` surfaces it once sending is drained.
 */
export class DurableOutcomes {
  private pending: Remembered[] = [];
  private waiting: { resolve: () => void; reject: (cause: unknown) => void }[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private failure: { cause: unknown } | undefined;
  /** Answers taken and not yet durable: pending, or written but not yet committed by a remote state. */
  private undurable = 0;

  constructor(private readonly state: StateStore, private readonly now: () => Date, private readonly window = 8) {}

  /** Journals one answer; returns a promise to await before reusing its slot when too many answers are not yet durable. */
  commit = (record: Remembered): Promise<void> | undefined => {
    if (this.failure) return Promise.reject(this.failure.cause);
    this.pending.push(record);
    this.undurable++;
    this.scheduled ??= setImmediate(() => this.flush());
    if (this.undurable <= this.window) return undefined;
    return new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
  };

  /** Every slot waits: commit what is pending now rather than on the next turn. */
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
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.pending.length === 0) return;
    const group = this.pending;
    const waiting = this.waiting;
    this.pending = [];
    this.waiting = [];
    // Never throws (it runs in the background): a failed commit rejects its answers' promises and every later commit, which stops the sender.
    try {
      this.state.remember(group, this.now());
    } catch (cause) {
      this.failure ??= { cause };
      for (const { reject } of waiting) reject(cause);
      return;
    }
    // A remote state (PostgreSQL) holds the group once its database committed it; SQLite's at once.
    this.state.durable().then(
      () => {
        this.undurable -= group.length;
        waiting.forEach(({ resolve }) => resolve());
      },
      (cause: unknown) => waiting.forEach(({ reject }) => reject(cause)),
    );
  }
}
