import type { OutboxSource, SettledEvent } from './outboxSource.js';

/**
 * Keeps settlements in groups: those made while one group is written go together in the next
 * (one UPDATE), and each caller's promise resolves once its own is committed.
 */
export class SettleWriter {
  private waiting: { settled: SettledEvent; resolve: () => void; reject: (cause: unknown) => void }[] = [];
  private writing: Promise<void> | undefined;

  constructor(private readonly source: OutboxSource) {}

  settle(settled: SettledEvent): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ settled, resolve, reject }));
    this.writing ??= this.flush();
    return done;
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting;
      this.waiting = [];
      try {
        await this.source.settle(group.map((item) => item.settled));
        for (const item of group) item.resolve();
      } catch (cause) {
        for (const item of group) item.reject(cause);
      }
    }
    this.writing = undefined;
  }
}
