import type { Remembered, StateStore } from './stateStore.js';

/**
 * Commits what the service answered in groups: as soon as `maxBatch` answers wait (the
 * concurrency), or at most `intervalMs` after the first. `add` resolves once its answer is
 * committed, and the sender frees the request's slot only then, so kill -9 can lose at most
 * the answers of the requests in flight and of one group: twice the concurrency.
 */
export class StateRecorder {
  private pending: Remembered[] = [];
  private waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly state: StateStore, private readonly now: () => Date, private readonly maxBatch = 8, private readonly intervalMs = 50) {}

  add(record: Remembered): Promise<void> {
    this.pending.push(record);
    const committed = new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.pending.length >= this.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
    return committed;
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    const waiting = this.waiting;
    this.pending = [];
    this.waiting = [];
    this.state.remember(batch, this.now());
    for (const resolve of waiting) resolve();
  }
}
