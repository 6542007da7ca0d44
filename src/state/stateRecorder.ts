import type { Remembered, StateStore } from './stateStore.js';

/** Buffers what the service acknowledged and commits it in groups, at most `intervalMs` apart. */
export class StateRecorder {
  private pending: Remembered[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly state: StateStore, private readonly now: () => Date, private readonly intervalMs = 50, private readonly maxBatch = 2000) {}

  add(record: Remembered): void {
    this.pending.push(record);
    if (this.pending.length >= this.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.state.remember(batch, this.now());
  }
}
