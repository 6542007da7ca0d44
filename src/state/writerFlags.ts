/** How long one wait lasts before the flags are read again. */
const WAIT_MS = 1000;

/** The flags' places in the shared memory (stateWriterWorker.js writes them). */
const COMMITTED = 0;
const FAILED = 1;
const CLOSED = 2;
const STATEMENTS = 3;

/**
 * What the state writer's thread tells the main thread through shared memory, readable while the
 * main thread blocks (its events do not run then): the batches it committed, whether it failed or
 * closed its connection, and a count of the statements it ran, its sign of life.
 */
export class WriterFlags {
  private constructor(private readonly flags: Int32Array) {}

  static create(): WriterFlags {
    return new WriterFlags(new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT)));
  }

  /** The memory to hand to the writer's thread. */
  get shared(): SharedArrayBuffer {
    return this.flags.buffer as SharedArrayBuffer;
  }

  get committed(): number {
    return Atomics.load(this.flags, COMMITTED);
  }

  get failed(): boolean {
    return Atomics.load(this.flags, FAILED) !== 0;
  }

  get closed(): boolean {
    return Atomics.load(this.flags, CLOSED) !== 0;
  }

  /** Blocks until the count of committed batches is no longer `seen`, or for at most `ms` (WAIT_MS at most). */
  waitCommit(seen: number, ms: number): void {
    Atomics.wait(this.flags, COMMITTED, seen, Math.min(WAIT_MS, ms));
  }

  /** Blocks until the connection is closed, or for at most `ms` (WAIT_MS at most). */
  waitClose(ms: number): void {
    Atomics.wait(this.flags, CLOSED, 0, Math.min(WAIT_MS, ms));
  }

  /** A check that is false once the writer has shown no sign of life (statements, commits) for `stallMs` since the last one seen. */
  liveness(stallMs: number): () => boolean {
    const signs = () => Atomics.load(this.flags, STATEMENTS) + Atomics.load(this.flags, COMMITTED);
    let last = signs();
    let since = Date.now();
    return () => {
      const now = signs();
      if (now !== last) [last, since] = [now, Date.now()];
      return Date.now() - since < stallMs;
    };
  }
}
