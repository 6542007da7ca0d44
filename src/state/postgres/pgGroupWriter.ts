import type pg from 'pg';
import { type PgWriteGroup, writeGroups } from './pgWrites.js';

/** Groups written in one transaction, and when that transaction is over (committed or failed). */
interface Batch {
  groups: PgWriteGroup[];
  over: Promise<void>;
  end: () => void;
  orderIds?: Set<string> | undefined;
}

const orderIdsOf = (batch: Batch) => (batch.orderIds ??= new Set(batch.groups.flatMap((group) => [...group.orderIds()])));
const shareOrders = (a: Batch, b: Batch) => {
  const [small, large] = [orderIdsOf(a), orderIdsOf(b)].sort((x, y) => x.size - y.size) as [Set<string>, Set<string>];
  for (const id of small) if (large.has(id)) return true;
  return false;
};

/**
 * Writes the PostgreSQL state's groups in order, on a few connections. The groups remembered while
 * every connection is busy wait together and go in one transaction (group commit: one round trip
 * and one commit for all of them). A transaction starts beside one in flight only when the two
 * write nothing of the same orders: they then touch no common row, so neither waits for the other
 * and the result is the same whichever commits first; otherwise it waits for the earlier one.
 * After a failure nothing more is written.
 */
export class PgGroupWriter {
  private readonly idle: pg.ClientBase[];
  private readonly flying = new Set<Batch>();
  private filling: Batch | undefined;
  private failure: Error | undefined;

  constructor(clients: readonly pg.ClientBase[]) {
    this.idle = [...clients];
  }

  enqueue(group: PgWriteGroup): void {
    if (!this.filling) {
      let end = () => undefined as void;
      const over = new Promise<void>((resolve) => (end = resolve));
      this.filling = { groups: [], over, end };
      queueMicrotask(() => this.pump());
    }
    this.filling.groups.push(group);
    this.filling.orderIds = undefined;
  }

  /** Starts the waiting groups' transaction when a connection is free and nothing in flight writes the same orders. */
  private pump(): void {
    const batch = this.filling;
    if (!batch) return;
    if (this.failure) {
      this.filling = undefined;
      batch.end();
      return;
    }
    if (this.idle.length === 0 || [...this.flying].some((other) => shareOrders(batch, other))) return;
    const client = this.idle.pop()!;
    this.filling = undefined;
    this.flying.add(batch);
    writeGroups(client, batch.groups)
      .catch((cause: unknown) => void (this.failure ??= cause as Error))
      .finally(() => {
        this.flying.delete(batch);
        this.idle.push(client);
        batch.end();
        this.pump();
      });
  }

  /** Settles once every group enqueued so far is written, or the writer failed (see `failed`). */
  async settled(): Promise<void> {
    await Promise.all([...this.flying, ...(this.filling ? [this.filling] : [])].map((batch) => batch.over));
  }

  get failed(): Error | undefined {
    return this.failure;
  }
}
