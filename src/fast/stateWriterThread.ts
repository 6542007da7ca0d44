import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { startWorker } from '../platform/singleBinary.js';
import { sqliteCodeName } from '../platform/sqliteCodes.js';

/** Batches sent and not yet committed, at most: past this the main thread waits (memory stays bounded). */
const IN_FLIGHT = 3;
/** The longest wait on the shared flags before they are read again. */
const WAIT_MS = 1000;
/** A writer that shows no sign of life this long while waited for has died (out of memory). */
const STALL_MS = 60_000;
const [COMMITTED, FAILED, CLOSED, STATEMENTS] = [0, 1, 2, 3];

/** What a read may look up: an order's rows, the orders claiming a key, a journal hash. */
export type PendingKind = 'order' | 'claim' | 'hash';

/** What the writer's thread told of its failure: a SQLite error's message and code (SQLITE_FULL). */
export class WriterFailure extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * A dry run's state writes committed on a thread with its own connection (stateWriterWorker.js),
 * while the run goes on: the fast twin of running them at once. The state lists each write
 * (`list`) and the keys it touches (`note`); `send` hands over a batch, one transaction. A read
 * first waits for the batches that write its key (`settle`), a write of the state's own for all
 * of them (`drain`): every read sees what running the writes at once would have left.
 */
export class StateWriterThread {
  private ops: unknown[] = [];
  private readonly known = new Map<string, number>();
  private sql: { text: string; arity: number; hashAt: number }[] = [];
  private sent = 0;
  private readonly pending: Record<PendingKind, Map<string, number>> = {
    order: new Map(),
    claim: new Map(),
    hash: new Map(),
  };
  private batches: { batch: number; keys: [PendingKind, string][] }[] = [];
  private keys: [PendingKind, string][] = [];
  private closed = false;
  private failure: WriterFailure | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly flags: Int32Array,
    private readonly errors: MessagePort,
    /** The kinds of key a read may look up at all (a table empty before the run is never read). */
    private readonly tracked: Record<PendingKind, boolean>,
  ) {}

  /** A writer of the state file at `path` (which exists, with its tables). */
  static start(path: string, tracked: Record<PendingKind, boolean>): StateWriterThread {
    const flags = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));
    const { port1, port2 } = new MessageChannel();
    const worker = startWorker(new URL('./stateWriterWorker.js', import.meta.url), {
      workerData: { path, shared: flags.buffer, errors: port2 },
      transferList: [port2],
    });
    // Never keeps the process alive: the state closes it before a run ends.
    worker.unref();
    return new StateWriterThread(worker, flags, port1, tracked);
  }

  /**
   * Lists one write: its SQL and parameters; `hashAt`: the parameter holding a hex hash, stored as bytes by
   * the writer.
   */
  list(text: string, params: readonly unknown[], hashAt = -1): void {
    let at = this.known.get(text);
    if (at === undefined) {
      at = this.known.size;
      this.known.set(text, at);
      this.sql.push({ text, arity: params.length, hashAt });
    }
    this.ops.push(at, ...params);
  }

  /** Notes that the batch being listed writes `key`. */
  note(kind: PendingKind, key: string): void {
    if (!this.tracked[kind] || this.pending[kind].get(key) === this.sent + 1) return;
    this.pending[kind].set(key, this.sent + 1);
    this.keys.push([kind, key]);
  }

  /** Hands what was listed to the writer, one transaction; waits while too many are uncommitted. */
  send(): void {
    this.throwIfFailed();
    if (this.ops.length === 0) return;
    this.worker.postMessage({ sql: this.sql, ops: this.ops });
    [this.ops, this.sql] = [[], []];
    this.sent += 1;
    this.batches.push({ batch: this.sent, keys: this.keys });
    this.keys = [];
    this.waitFor(this.sent - IN_FLIGHT);
  }

  /** Waits until the batches that write `key` are committed. */
  settle(kind: PendingKind, key: string): void {
    const batch = this.pending[kind].get(key);
    if (batch === undefined) return;
    if (batch > this.sent) this.send();
    this.waitFor(batch);
  }

  /** Sends what is listed and waits until every batch is committed. */
  drain(): void {
    this.send();
    this.waitFor(this.sent);
  }

  /** Commits what is left, then ends the thread. */
  close(): void {
    if (this.closed) return;
    try {
      this.drain();
    } finally {
      this.closed = true;
      this.worker.postMessage('close');
      const alive = this.liveness();
      while (Atomics.load(this.flags, CLOSED) === 0 && alive()) Atomics.wait(this.flags, CLOSED, 0, WAIT_MS);
      this.errors.close();
    }
    this.throwIfFailed();
  }

  private waitFor(batch: number): void {
    const alive = this.liveness();
    for (;;) {
      const done = Atomics.load(this.flags, COMMITTED);
      this.forget(done);
      if (done >= batch) return;
      this.throwIfFailed();
      if (!alive())
        throw (this.failure = new WriterFailure(
          `its writer thread showed no sign of life for ${STALL_MS / 1000} s`,
        ));
      Atomics.wait(this.flags, COMMITTED, done, WAIT_MS);
    }
  }

  /** Forgets the keys of committed batches: only uncommitted ones are waited for. */
  private forget(committed: number): void {
    while (this.batches.length > 0 && this.batches[0]!.batch <= committed) {
      const { batch, keys } = this.batches.shift()!;
      for (const [kind, key] of keys)
        if (this.pending[kind].get(key) === batch) this.pending[kind].delete(key);
    }
  }

  /** False once the writer ran no statement and committed nothing for STALL_MS. */
  private liveness(): () => boolean {
    const signs = () => Atomics.load(this.flags, STATEMENTS) + Atomics.load(this.flags, COMMITTED);
    let [last, since] = [signs(), Date.now()];
    return () => {
      const now = signs();
      if (now !== last) [last, since] = [now, Date.now()];
      return Date.now() - since < STALL_MS;
    };
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
    if (Atomics.load(this.flags, FAILED) === 0) return;
    const told = receiveMessageOnPort(this.errors)?.message as
      { message: string; code?: string; errcode?: number } | undefined;
    const code = told?.errcode === undefined ? told?.code : sqliteCodeName(told.errcode);
    throw (this.failure = new WriterFailure(told?.message ?? 'the state writer failed', code));
  }
}
