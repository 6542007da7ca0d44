import type pg from 'pg';
import { type PgWriteGroup, writeGroups } from './pgWrites.js';

/** Groups written in one transaction, and when that transaction is over (committed or failed). */
interface Batch {
  groups: PgWriteGroup[];
  over: Promise<void>;
  end: () => void;
}

/**
 * Writes the PostgreSQL state's groups in order on one connection. The groups remembered while a
 * transaction is in flight wait together and go in the next one (group commit: one round trip and
 * one commit for all of them). After a failure nothing more is written.
 */
export class PgGroupWriter {
  private flying: Batch | undefined;
  private filling: Batch | undefined;
  private failure: Error | undefined;

  constructor(private readonly client: pg.ClientBase) {}

  enqueue(group: PgWriteGroup): void {
    if (!this.filling) {
      let end = () => undefined as void;
      const over = new Promise<void>((resolve) => (end = resolve));
      this.filling = { groups: [], over, end };
      queueMicrotask(() => this.pump());
    }
    this.filling.groups.push(group);
  }

  /** Starts the waiting groups' transaction once the one in flight is over. */
  private pump(): void {
    const batch = this.filling;
    if (!batch || this.flying) return;
    this.filling = undefined;
    if (this.failure) {
      batch.end();
      return;
    }
    this.flying = batch;
    writeGroups(this.client, batch.groups)
      .catch((cause: unknown) => void (this.failure ??= cause as Error))
      .finally(() => {
        this.flying = undefined;
        batch.end();
        this.pump();
      });
  }

  /** Settles once every group enqueued so far is written, or the writer failed (see `failed`). */
  async settled(): Promise<void> {
    await Promise.all([this.flying, this.filling].filter((batch) => batch !== undefined).map((batch) => batch.over));
  }

  get failed(): Error | undefined {
    return this.failure;
  }
}
