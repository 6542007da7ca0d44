import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { PriorOrder } from '../flow/timeline.js';
import type { StateWrites } from '../resources/resource.js';
import { AnswerHandoff } from './answerHandoff.js';
import { AnswerLog } from './answerLog.js';
import { BackgroundWriter } from './backgroundWriter.js';
import { hashBlob, outcomeCode, outcomeOf, unixSeconds } from './compactRows.js';
import { namespaceOf, rememberRecords, type Remembered } from './remembered.js';
import { replayAnswers } from './replayAnswers.js';
import { PRIOR_ROWS, priorOrderOf, type PriorRow } from './priorOrder.js';
import { openStateFile, privateFolder } from './sqliteFile.js';
import { guardState, stateError } from './stateErrors.js';
import { StateLock, type LockRequest } from './stateLock.js';
import { countsOf, prepare, writesOn, type Counts, type StoreStatements } from './stateStatements.js';
import { writeNames } from './stateWriteSql.js';

/**
 * What earlier runs against one service recorded: orders created (payment and acquirer ids,
 * delivery ids), decisions, statuses, fraud marks and the journal of records seen.
 * `path` null keeps it in memory (`--no-state`).
 */
export class StateStore {
  protected readonly db: Database.Database;
  /** The database unguarded, for the run lock's immediate transactions (stateLock.ts). */
  private readonly raw: Database.Database;
  private counts: Counts;
  private readonly statements: StoreStatements;
  private readonly writes: StateWrites;
  private readonly rememberAll: (records: readonly Remembered[], at: number) => void;
  /** The hot reads of a later run (an order, a journal hash), on the connection itself: a SQLite failure is explained where they are called, with no wrapper per call. */
  private readonly priorRows: Database.Statement;
  private readonly journaled: Database.Statement;
  /** The writer of a dry run's validated records, and of a locked run's answers, on a worker thread, once started. */
  private background: BackgroundWriter | undefined;
  /** While the run holds the lock of a state file: its answers on their way to the writer (remember). */
  private handoff: AnswerHandoff | undefined;
  /** Whether rememberLater listed writes that are in no answer log (durable() waits for those). */
  private unlogged = false;

  /** `path` null: in memory. Refuses (StateError) a file that is empty, corrupt, truncated or from a newer collect. */
  constructor(readonly path: string | null, readonly baseUrl?: string) {
    const opened = openStateFile(path, (db) => {
      if (baseUrl) db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('base_url', baseUrl);
      return { counts: countsOf(db), statements: prepare(db) };
    });
    this.db = opened.db;
    this.raw = opened.raw;
    this.counts = opened.value.counts;
    this.statements = opened.value.statements;
    this.priorRows = guardState(path ?? ':memory:', () => this.raw.prepare(PRIOR_ROWS).raw(true));
    this.journaled = guardState(path ?? ':memory:', () => this.raw.prepare('SELECT outcome FROM journal WHERE hash = ?').pluck(true));
    const s = this.statements;
    this.writes = writesOn(s);
    // Made once: a sending run commits a small group per window of answers, thousands of times.
    this.rememberAll = this.db.transaction((records: readonly Remembered[], at: number) =>
      rememberRecords(records, this.writes, (hash, _endpoint, _orderId, outcome) => s.journal.run(hashBlob(hash), outcomeCode(outcome), at)));
  }

  /** Opens the store of a namespace in `dir`, creating the folder (private: 0700); null dir: in memory. */
  static open(dir: string | null, baseUrl?: string): StateStore {
    if (dir === null) return new StateStore(null, baseUrl);
    privateFolder(dir);
    return new StateStore(StateStore.fileOf(dir, baseUrl), baseUrl);
  }

  /** The file of a namespace's store in `dir`. */
  static fileOf(dir: string, baseUrl?: string): string {
    return join(dir, `${namespaceOf(baseUrl)}.sqlite`);
  }

  /** Where the state is, for messages (null: in memory). */
  get location(): string | null {
    return this.path;
  }

  /** The database, for the run lock kept beside the state (stateLock.ts). */
  get database(): Database.Database {
    return this.raw;
  }

  /** Takes the run's lock (stateLock.ts), then reads what the state holds afresh: a run that waited sees what the other one wrote. */
  async lock(request: LockRequest): Promise<{ release(): void }> {
    const lock = await StateLock.acquire(this.raw, request);
    if (this.path !== null) replayAnswers(this.raw, this.db, this.statements, this.path, lock.token);
    this.recount();
    if (this.path === null) return lock;
    this.handoff = new AnswerHandoff(this.path, new AnswerLog(this.path, lock.token, { collectAnswers: 1, writes: writeNames }));
    return {
      release: () => {
        try {
          // Every batch committed and its answer file removed before another run may take the lock.
          this.background?.drain();
        } finally {
          this.handoff = undefined;
          lock.release();
        }
      },
    };
  }

  /** Reads afresh which tables hold anything. */
  protected recount(): void {
    this.settle();
    this.counts = countsOf(this.db);
  }

  get hasOrders(): boolean {
    return this.counts.orders === 1;
  }

  priorOrder(orderId: string): PriorOrder | null {
    if (!this.hasOrders && this.counts.decisions === 0) return null;
    this.background?.settle('order', orderId);
    const loaded = this.counts.decisions === 0 ? undefined : (this.statements.loaded.get(orderId) as { decision: string } | undefined)?.decision;
    let rows: PriorRow[];
    try {
      rows = this.priorRows.all(orderId, orderId, orderId, orderId) as PriorRow[];
    } catch (cause) {
      throw stateError(cause, this.path ?? ':memory:') ?? cause;
    }
    return priorOrderOf(rows, loaded);
  }

  /** The orders whose creations claimed a key (a delivery id), in earlier runs. */
  claimants(key: string): string[] {
    if (this.counts.deliveries === 0) return [];
    this.background?.settle('claim', key);
    return (this.statements.owners.all(key) as { order_id: string }[]).map((row) => row.order_id);
  }

  /** What became of the same record (same endpoint and content) in an earlier run, if it was seen. */
  journalOutcome(hash: string): Remembered['outcome'] | undefined {
    if (this.counts.journal === 0) return undefined;
    this.background?.settle('hash', hash);
    let outcome: number | undefined;
    try {
      outcome = this.journaled.get(hashBlob(hash)) as number | undefined;
    } catch (cause) {
      throw stateError(cause, this.path ?? ':memory:') ?? cause;
    }
    return outcome === undefined ? undefined : outcomeOf(outcome);
  }

  /**
   * Records what the service now knows: kept for good when this returns. Under the run's lock,
   * in the answer log and then by the writer thread (answerHandoff.ts); otherwise in one transaction.
   */
  remember(records: readonly Remembered[], now: Date): void {
    if (!this.handoff) {
      this.settle();
      this.rememberAll(records, unixSeconds(now));
      return;
    }
    // False: this run's lock was taken over while it was stopped, and its answer file claimed: it committed the rest itself.
    if (!this.handoff.list(this.backgroundWriter(this.handoff.log), records, now)) this.handoff = undefined;
  }

  /** The background writer, started at the first write it takes; reads note only keys of tables that held rows before the run. */
  private backgroundWriter(log?: AnswerLog): BackgroundWriter {
    const writer = (this.background ??= BackgroundWriter.start(this.path!, log));
    // The reads that find a table empty never wait (the counts are of the state before the run): their keys need no noting.
    writer.tracked.order = this.hasOrders || this.counts.decisions !== 0;
    writer.tracked.claim = this.counts.deliveries !== 0;
    writer.tracked.hash = this.counts.journal !== 0;
    return writer;
  }

  /**
   * Records a dry run's validated records, committed in one transaction on a worker thread (a
   * state file; in memory, at once as `remember`): the run goes on meanwhile. A later read of
   * this store first waits for those that write what it reads, a write of its own for all of
   * them, and `durable()` and `close()` commit the rest.
   */
  rememberLater(records: readonly Remembered[], now: Date): void {
    if (this.path === null) return this.remember(records, now);
    const writer = this.backgroundWriter(this.handoff?.log);
    this.unlogged = true;
    const at = unixSeconds(now);
    rememberRecords(records, writer.writes, (hash, _endpoint, _orderId, outcome) => writer.journal(hash, outcomeCode(outcome), at));
    writer.send();
  }

  /** Waits until what rememberLater sent is committed: then this connection writes after it. */
  private settle(): void {
    if (this.background && !this.background.idle) this.background.drain();
  }

  /** Resolves once everything remembered so far is durable: here once rememberLater's writes are committed (remember's are, in a transaction or the answer log); a remote state waits for its database. */
  durable(): Promise<void> {
    if (!this.unlogged) return Promise.resolve();
    try {
      this.background?.drain();
    } catch (cause) {
      return Promise.reject(cause as Error);
    }
    return Promise.resolve();
  }

  /** Whether the state's database failed during the run (a remote one): sending stops. */
  get failed(): boolean {
    return false;
  }

  /** Evaluation decisions the service made outside collect (`collect decisions`), in one transaction; a later load of an order replaces an earlier one. */
  rememberDecisions(decisions: readonly { orderId: string; decision: string }[], source: string, now: Date): void {
    const at = unixSeconds(now);
    this.settle();
    this.db.transaction(() => {
      for (const { orderId, decision } of decisions) this.statements.load.run(orderId, decision, source, at);
    })();
    if (decisions.length > 0) this.counts.decisions = 1;
  }

  /** One decision made outside collect (tests, and the analyst's single order). */
  rememberDecision(orderId: string, decision: string, now = new Date()): void {
    this.rememberDecisions([{ orderId, decision }], 'by hand', now);
  }

  close(): void {
    try {
      this.background?.close();
    } finally {
      this.db.close();
    }
  }
}
