import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** SQLite's own default: the writer checkpoints once the WAL holds this many pages. */
const DEFAULT_PAGES = 1000;
/** While the worker checkpoints, the writer does so itself only past this many (64 MiB): a safety net, never reached when the worker keeps up. */
const FALLBACK_PAGES = 16_384;
/** How often the worker copies the WAL into the database file. */
const EVERY_MS = 250;

/** What one checkpoint of the worker did: frames in the WAL, frames copied into the database. */
export interface Checkpointed {
  log: number;
  checkpointed: number;
}

/**
 * Checkpoints a SQLite state's WAL on a worker thread while a run sends. A checkpoint writes
 * pages into the database file and fsyncs it (synchronous=NORMAL): done by the writer itself,
 * it blocked the event loop for milliseconds every thousand pages, and no answer was read
 * meanwhile. Durability is unchanged: a commit is durable once in the WAL, as before.
 */
export class WalCheckpoint {
  /** Resolves once the worker is gone (stopped, or failed: then the writer checkpoints itself again). */
  readonly ended: Promise<void>;

  private constructor(private readonly worker: Worker, private readonly db: Database.Database) {
    this.ended = new Promise((resolve) => worker.once('exit', () => resolve()));
  }

  /** Starts checkpointing the database at `path` (the state's file, opened by `db`) in the background. */
  static start(db: Database.Database, path: string, onCheckpoint?: (done: Checkpointed) => void): WalCheckpoint {
    const worker = new Worker(new URL('./walCheckpointWorker.js', import.meta.url), { workerData: { path, everyMs: EVERY_MS } });
    const background = new WalCheckpoint(worker, db);
    // The writer's own checkpoints take over whenever the worker is not there to do them.
    const fallBack = () => background.writerCheckpoints(DEFAULT_PAGES);
    worker.on('message', (message: Checkpointed | { error: string }) => {
      if ('error' in message) fallBack();
      else onCheckpoint?.(message);
    });
    worker.on('error', fallBack);
    worker.on('exit', fallBack);
    background.writerCheckpoints(FALLBACK_PAGES);
    return background;
  }

  private writerCheckpoints(pages: number): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${pages}`);
  }

  /** Stops the worker (its checkpoint in progress, if any, finishes first); the writer checkpoints itself again, as at close. */
  async stop(): Promise<void> {
    this.writerCheckpoints(DEFAULT_PAGES);
    this.worker.postMessage('stop');
    await this.ended;
  }
}
