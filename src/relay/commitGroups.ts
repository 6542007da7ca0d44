import type { Remembered } from '../state/remembered.js';
import type { SettledEvent } from './outboxSource.js';

/** What one event's outcome writes: the state's rows (what the service now knows), then its fate in the outbox. */
export interface EventCommit {
  rows: readonly Remembered[];
  settled: SettledEvent;
}

/** How long a commit waits for others while events are in flight: one transaction then carries several. */
export const COMMIT_WINDOW_MS = 5;

/**
 * The relay's group commit: commits made while one group is written, or within COMMIT_WINDOW_MS of
 * the first while other events are in flight, go together (one state transaction, one UPDATE of the
 * outbox); each caller's promise resolves once its own is kept for good, so a kill -9 still resends
 * at most the events in flight. Each write is a system call and a transaction: at 500 events/s they
 * were most of the relay's and PostgreSQL's time.
 */
export class CommitGroups {
  private waiting: { commit: EventCommit; resolve: () => void; reject: (cause: unknown) => void }[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    private readonly write: (group: readonly EventCommit[]) => Promise<void>,
    /** Whether other events are in flight (their outcomes may join the group). */
    private readonly othersInFlight: () => boolean,
    private readonly windowMs = COMMIT_WINDOW_MS,
  ) {}

  commit(commit: EventCommit): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ commit, resolve, reject }));
    this.writing ??= this.flush();
    return done;
  }

  private async flush(): Promise<void> {
    if (this.windowMs > 0 && this.othersInFlight())
      await new Promise((resolve) => setTimeout(resolve, this.windowMs));
    while (this.waiting.length > 0) {
      const group = this.waiting;
      this.waiting = [];
      try {
        await this.write(group.map((item) => item.commit));
        for (const item of group) item.resolve();
      } catch (cause) {
        for (const item of group) item.reject(cause);
      }
    }
    this.writing = undefined;
  }
}
