import type { Remembered, StateStore } from '../state/stateStore.js';

/**
 * The kill -9 guarantee of a sending run, in one place: **an answer is durable before its
 * request's slot is reused.** The sender awaits the promise `commit` returns before it frees the
 * slot (Sender's `onOutcome`), and `commit` resolves only once the answer is written to the state.
 * Answers are written in groups: as soon as `groupSize` wait (the concurrency), when every slot
 * waits (`onStall`: no answer can come to fill the group), or `intervalMs` after the first.
 * So a kill can lose at most the answers of the requests in flight and of one group, and a
 * re-run sends at most twice the concurrency again: never a record the state says was accepted.
 */
export class DurableOutcomes {
  private pending: Remembered[] = [];
  private waiting: { resolve: () => void; reject: (cause: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly state: StateStore, private readonly now: () => Date, private readonly groupSize = 8, private readonly intervalMs = 50) {}

  /** Journals one answer; resolves once it is committed. */
  commit = (record: Remembered): Promise<void> => {
    this.pending.push(record);
    const committed = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    if (this.pending.length >= this.groupSize) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
    return committed;
  };

  /** Every slot waits: commit what is pending now rather than at the timer. */
  onStall = (): void => this.flush();

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const group = this.pending;
    const waiting = this.waiting;
    this.pending = [];
    this.waiting = [];
    // Never throws (it runs from a timer too): a failed commit (a full disk) rejects its answers' promises, which stops the sender.
    try {
      this.state.remember(group, this.now());
    } catch (cause) {
      for (const { reject } of waiting) reject(cause);
      return;
    }
    // A remote state (PostgreSQL) holds the group once its database committed it; SQLite's at once.
    this.state.durable().then(
      () => waiting.forEach(({ resolve }) => resolve()),
      (cause: unknown) => waiting.forEach(({ reject }) => reject(cause)),
    );
  }
}
