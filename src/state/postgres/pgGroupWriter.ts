import type pg from 'pg';
import { connectionLost } from './pgConnection.js';
import { type PgWriteGroup, writeGroups } from './pgWrites.js';

const WRITE_ATTEMPTS = 3;

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

  /**
   * `before` is awaited before each transaction (the run's lock held). `recover`, given the failure of a
   * dropped connection, returns a new connection to write on, once the run's lock is held again (or throws:
   * the state is lost). A transaction that failed so is written again whole: its writes are upserts and
   * updates to the same values, so writing it twice (when its commit was done but its answer lost) gives what
   * writing it once does.
   */
  constructor(
    private client: pg.ClientBase,
    private readonly options: {
      recover?: (lost: unknown) => Promise<pg.ClientBase>;
      before?: () => Promise<void>;
    } = {},
  ) {}

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
    this.write(batch.groups)
      .catch((cause: unknown) => void (this.failure ??= cause as Error))
      .finally(() => {
        this.flying = undefined;
        batch.end();
        this.pump();
      });
  }

  /**
   * Writes a batch, on a new connection when the one it was written on dropped (a few times: a batch that
   * kills each connection is not lost ones).
   */
  private async write(groups: PgWriteGroup[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.options.before?.();
      try {
        await writeGroups(this.client, groups);
        return;
      } catch (cause) {
        if (!this.options.recover || !connectionLost(cause) || attempt >= WRITE_ATTEMPTS) throw cause;
        this.client = await this.options.recover(cause);
      }
    }
  }

  /** Settles once every group enqueued so far is written, or the writer failed (see `failed`). */
  async settled(): Promise<void> {
    await Promise.all(
      [this.flying, this.filling].filter((batch) => batch !== undefined).map((batch) => batch.over),
    );
  }

  get failed(): Error | undefined {
    return this.failure;
  }
}
