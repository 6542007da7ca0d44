import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { StateWrites } from '../resources/resource.js';
import type { AnswerLog } from './answerLog.js';
import { StateError, stateError } from './stateErrors.js';
import { writeNames, writeSql, type WriteName } from './stateWriteSql.js';
import { WriterFlags } from './writerFlags.js';

/** Batches sent and not yet committed, at most: the main thread waits past this (memory stays bounded). */
const IN_FLIGHT = 3;
/**
 * How long the writer may show no sign of life (a statement run, a batch committed, its connection
 * closed) while the main thread waits for it: past this its thread died without a word (out of
 * memory), and the run stops with a StateError instead of waiting for ever.
 */
const STALL_MS = 60_000;

const code = Object.fromEntries(writeNames.map((name, position) => [name, position])) as Record<WriteName, number>;

/** A creation's status in its listed write: after the code, order id, hash and evaluate flag. */
const STATUS_AT = 4;

/** What a read of the store may look up: an order's rows, the orders claiming a delivery id, a journal hash. */
export type PendingKind = 'order' | 'claim' | 'hash';

/**
 * Writes a dry run's validated records into a SQLite state on a worker thread, with its own
 * connection: the main thread only lists the writes (`writes`, `journal`) and sends each batch
 * (`send`), one transaction each, committed in order. The store waits before a read of its own
 * until the batches that write what it reads are committed (`settle`), and before a write of
 * its own until all are (`drain`): it reads what a synchronous write would have left. A failure
 * of the writer comes out of the next send, settle or drain as a StateError.
 */
export class BackgroundWriter {
  readonly writes: StateWrites;
  private ops: unknown[] = [];
  private sent = 0;
  /** The last batch (its number, from 1) that writes each key, for the keys of batches not known to be committed. */
  private readonly pending: Record<PendingKind, Map<string, number>> = { order: new Map(), claim: new Map(), hash: new Map() };
  /** Which keys a read of the store may look up at all (a table empty before the run is never read): only those are noted. */
  readonly tracked: Record<PendingKind, boolean> = { order: true, claim: true, hash: true };
  /** The keys each uncommitted batch writes, oldest first: forgotten once it is committed. */
  private batches: { batch: number; keys: [PendingKind, string][] }[] = [];
  private keys: [PendingKind, string][] = [];
  private failure: StateError | undefined;
  private closed = false;
  /** How many of `ops` are in the answer log already. */
  private logged = 0;
  /** Where the status of each order created in the batch being listed is, in `ops` (its write's code is STATUS_AT before): a later status of it is folded in (addOrderLastStatus). */
  private created = new Map<string, number>();
  /** The orders given a status by a plain update in the batch being listed: a later one is not folded (the updates run after the inserts). */
  private updated = new Set<string>();

  private constructor(
    private readonly path: string, private readonly worker: Worker, private readonly flags: WriterFlags, private readonly errors: MessagePort,
    private readonly log: AnswerLog | undefined, private readonly stallMs: number,
  ) {
    const ops = () => this.ops;
    const order = (orderId: string) => this.touch('order', orderId);
    this.writes = {
      // A second creation of an order in one batch changes nothing (INSERT OR IGNORE): not listed, so the first one's write stays the one that counts.
      createOrder: (o) => (this.created.has(o.orderId) || this.created.set(o.orderId, ops().push(code.addOrder, o.orderId, o.hash, o.evaluate ? 1 : 0, o.status) - 1)) && order(o.orderId),
      setDecision: (orderId, decision) => ops().push(code.setDecision, decision, orderId) && order(orderId),
      addPayment: (orderId, paymentId, acquirerId) => ops().push(code.addPayment, orderId, paymentId, acquirerId) && order(orderId),
      setUpdatedAcquirer: (orderId, paymentId, acquirerId) => ops().push(code.setAcquirer, acquirerId, orderId, paymentId) && order(orderId),
      setLastStatus: (orderId, status) => this.foldStatus(orderId, status) || (this.updated.add(orderId) && ops().push(code.setStatus, status, orderId) && order(orderId)),
      addFraudMark: (orderId, signalType) => ops().push(code.addMark, orderId, signalType) && order(orderId),
      addDelivery: (orderId, deliveryId) => ops().push(code.addDelivery, orderId, deliveryId) && order(orderId) && this.touch('claim', deliveryId),
    };
  }

  /** A writer of the state file at `path` (which exists, with its schema); with `log`, what is listed is kept there until committed (`logListed`). */
  static start(path: string, log?: AnswerLog, stallMs = STALL_MS): BackgroundWriter {
    const flags = WriterFlags.create();
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./stateWriterWorker.js', import.meta.url), {
      workerData: { path, statements: writeNames.map((name) => writeSql[name]), shared: flags.shared, errors: port2 },
      transferList: [port2],
    });
    // Never keeps the process alive: a run drains and closes it before it ends.
    worker.unref();
    return new BackgroundWriter(path, worker, flags, port1, log, stallMs);
  }

  /** The journal line of a record: its hash, outcome code and time. */
  journal(hash: string, outcome: number, at: number): void {
    this.ops.push(code.journal, hash, outcome, at);
    this.touch('hash', hash);
  }

  /** Folds a status into the creation of its order listed in this batch and not yet logged: one upsert instead of an insert and an update. */
  private foldStatus(orderId: string, status: string): boolean {
    const at = this.created.get(orderId);
    if (at === undefined || at < this.logged || this.updated.has(orderId)) return false;
    this.ops[at] = status;
    this.ops[at - STATUS_AT] = code.addOrderLastStatus;
    return true;
  }

  /** Writes what was listed since the last call to the answer log: durable from here on, against kill -9. False: another run claimed the log (see AnswerLog). */
  logListed(): boolean {
    const kept = this.log?.append(this.ops.slice(this.logged)) ?? true;
    this.logged = this.ops.length;
    return kept;
  }

  /** Notes that the batch being listed writes `key`. */
  private touch(kind: PendingKind, key: string): true {
    if (this.tracked[kind] && this.pending[kind].get(key) !== this.sent + 1) {
      this.pending[kind].set(key, this.sent + 1);
      this.keys.push([kind, key]);
    }
    return true;
  }

  /** Waits until the batches that write `key` are committed; sends the one being listed first, if it does. */
  settle(kind: PendingKind, key: string): void {
    const batch = this.pending[kind].get(key);
    if (batch === undefined) return;
    if (batch > this.sent) this.send();
    this.waitFor(batch);
  }

  /** Sends the writes listed since the last send, as one transaction; waits while too many are uncommitted. */
  send(): void {
    this.throwIfFailed();
    if (this.ops.length === 0) return;
    this.worker.postMessage({ ops: this.ops });
    this.ops = [];
    this.logged = 0;
    this.created.clear();
    this.updated.clear();
    this.sent += 1;
    this.log?.seal(this.sent);
    this.batches.push({ batch: this.sent, keys: this.keys });
    this.keys = [];
    this.waitFor(this.sent - IN_FLIGHT);
  }

  /** Forgets the keys of the batches committed: only those of uncommitted ones are waited for. */
  private forget(committed: number): void {
    this.log?.drop(committed);
    while (this.batches.length > 0 && this.batches[0]!.batch <= committed) {
      const { batch, keys } = this.batches.shift()!;
      for (const [kind, key] of keys) if (this.pending[kind].get(key) === batch) this.pending[kind].delete(key);
    }
  }

  /** Forgets (and drops from the answer log) the batches committed so far, without waiting. */
  poll(): void {
    this.throwIfFailed();
    this.forget(this.flags.committed);
  }

  /** Sends what is listed, then waits until every batch sent is committed. */
  drain(): void {
    if (this.ops.length > 0) this.send();
    this.waitFor(this.sent);
  }

  /** Whether every batch sent is committed (nothing to wait for). */
  get idle(): boolean {
    return this.ops.length === 0 && this.flags.committed >= this.sent;
  }

  /** Commits what is left, then closes the writer's connection and ends the thread. */
  close(): void {
    if (this.closed) return;
    try {
      this.drain();
    } finally {
      this.closed = true;
      this.worker.postMessage('close');
      this.waitClosed();
      this.errors.close();
    }
    this.throwIfFailed();
  }

  private waitFor(committed: number): void {
    const alive = this.flags.liveness(this.stallMs);
    for (;;) {
      const done = this.flags.committed;
      this.forget(done);
      if (done >= committed) return;
      this.throwIfFailed();
      if (this.flags.closed) throw this.fail({ message: 'the state writer stopped before committing every batch' });
      if (!alive()) throw this.fail({ message: this.silence() });
      this.flags.waitCommit(done, this.stallMs);
    }
  }

  /** Waits until the writer closed its connection; a writer that shows no sign of life fails (throwIfFailed says it). */
  private waitClosed(): void {
    const alive = this.flags.liveness(this.stallMs);
    while (!this.flags.closed) {
      if (!alive()) return void this.fail({ message: this.silence() });
      this.flags.waitClose(this.stallMs);
    }
  }

  private silence(): string {
    return `the state writer showed no sign of life for ${Math.round(this.stallMs / 1000)} s: its thread stopped (out of memory?)`;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
    if (!this.flags.failed) return;
    const told = receiveMessageOnPort(this.errors)?.message as { message: string; code?: string } | undefined;
    throw this.fail(told ?? { message: 'the state writer failed' });
  }

  private fail(told: { message: string; code?: string }): StateError {
    const cause = Object.assign(new Error(told.message), told.code === undefined ? {} : { code: told.code });
    this.failure ??= stateError(cause, this.path) ?? new StateError(`cannot write the state file ${this.path} (${told.message})`, 'check the disk and the folder, or use another --state folder, then run the same command again');
    return this.failure;
  }
}
