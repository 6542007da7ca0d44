import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startWorker } from '../platform/singleBinary.js';

/** How long a worker no file has taken back waits before it stops. */
const IDLE_MS = 2000;

/**
 * Piece workers kept between the files of a run: a backfill reads file after file, and a worker
 * started anew for each paid its start and its module loading again (a third of a second on two
 * busy cores) and lost what its compiler had learnt. An idle worker keeps no process alive and
 * stops after IDLE_MS.
 */
export class PieceWorkerPool {
  private readonly idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];
  /** The old-generation limit each worker was started with (undefined: V8's own). */
  private readonly heaps = new WeakMap<Worker, number | undefined>();

  constructor(
    private readonly script: URL,
    private readonly taskUrl: string,
  ) {}

  /** A worker for one file, its heap held to `limits`: an idle one started with the same limits, or a new one. */
  take(limits?: ResourceLimits): Worker {
    const heapMb = limits?.maxOldGenerationSizeMb;
    const at = this.idle.findLastIndex((entry) => this.heaps.get(entry.worker) === heapMb);
    if (at >= 0) {
      const kept = this.idle.splice(at, 1)[0]!;
      clearTimeout(kept.timer);
      kept.worker.ref();
      return kept.worker;
    }
    const worker = startWorker(this.script, {
      workerData: { taskUrl: this.taskUrl },
      ...(limits ? { resourceLimits: limits } : {}),
    });
    this.heaps.set(worker, heapMb);
    return worker;
  }

  /**
   * Takes back a worker with no piece in flight, its file's listeners removed; it stops after IDLE_MS unless
   * taken again.
   */
  giveBack(worker: Worker): void {
    for (const event of ['message', 'error', 'exit'] as const) worker.removeAllListeners(event);
    const entry = { worker, timer: setTimeout(() => this.stop(worker), IDLE_MS) };
    entry.timer.unref();
    worker.unref();
    // A worker that dies while idle is dropped, not handed out.
    worker.once('exit', () => this.forget(worker));
    worker.on('error', () => this.forget(worker));
    this.idle.push(entry);
  }

  /** Workers waiting for a file. */
  get idleCount(): number {
    return this.idle.length;
  }

  private stop(worker: Worker): void {
    this.forget(worker);
    void worker.terminate();
  }

  private forget(worker: Worker): void {
    const at = this.idle.findIndex((entry) => entry.worker === worker);
    if (at >= 0) clearTimeout(this.idle.splice(at, 1)[0]!.timer);
  }
}
