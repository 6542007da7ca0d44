import { join } from 'node:path';
import {
  arrays,
  transaction,
  type ArrayStatement,
  type Database,
  type SQLInputValue,
  type Statement,
} from '../../platform/sqlite.js';
import type { PriorOrder } from '../../flow/timeline.js';
import type { RememberedTable, StateWrites } from '../../resources/resource.js';
import { hashBlob, outcomeCode, outcomeOf, unixSeconds, type Outcome } from '../compactRows.js';
import { namespaceOf, rememberRecords, type Remembered } from '../remembered.js';
import type { AcquirerOwner, HeldLock, LockRequest, RunState } from '../runState.js';
import { RunScratch } from '../runScratch.js';
import { guardState, StateError, stateError } from '../stateErrors.js';
import { ordersByCard } from './cardPayments.js';
import { DeclaredTables } from './declaredTables.js';
import { PRIOR_ROWS, priorOrderOf, type PriorRow } from './priorOrder.js';
import { openStateFile, privateFolder } from './sqliteFile.js';
import { StateLock } from './stateLock.js';
import { countsOf, prepare, writesOn, type Counts, type StoreStatements } from './stateStatements.js';

/** How a SQLite state is opened: the tables resources declare (declaredTables.ts), and whether the run only reads. */
export interface SqliteOptions {
  tables?: readonly RememberedTable[];
  readOnly?: boolean;
}

/**
 * The embedded state: one SQLite file per service namespace in a folder, or in memory (`path`
 * null: `--no-state`, and the local copy of a PostgreSQL state). Every write is a transaction on
 * the run's own thread, so a later read sees it; committed in WAL mode, it survives kill -9.
 */
export class SqliteState implements RunState {
  /** The database, every failure a StateError naming the file (sqliteFile.ts). */
  readonly db: Database;
  /** The database unguarded, for the run lock's immediate transactions (stateLock.ts). */
  private readonly raw: Database;
  private counts: Counts;
  private readonly statements: StoreStatements;
  private readonly declared: DeclaredTables;
  private readonly rememberAll: (records: readonly Remembered[], at: number) => void;
  /** The hot reads of a later run, on the connection itself: a failure is explained where they are called. */
  private readonly priorRows: ArrayStatement<PriorRow>;
  private readonly journaled: Statement;
  /** The run's lock, while held: a write checks it is still this run's. */
  private held: StateLock | undefined;

  /** `path` null: in memory. Refuses (StateError) a file that is empty, corrupt, truncated or from a newer collect. */
  constructor(
    readonly path: string | null,
    readonly baseUrl?: string,
    private readonly options: SqliteOptions = {},
  ) {
    const opened = openStateFile(path, (db) => {
      if (baseUrl)
        db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('base_url', baseUrl);
      const declared = new DeclaredTables(db, options.tables ?? []);
      return { counts: countsOf(db), statements: prepare(db), declared };
    });
    this.db = opened.db;
    this.raw = opened.raw;
    this.counts = opened.value.counts;
    this.statements = opened.value.statements;
    this.declared = opened.value.declared;
    const where = path ?? ':memory:';
    this.priorRows = guardState(where, () => arrays<PriorRow>(this.raw.prepare(PRIOR_ROWS)));
    this.journaled = guardState(where, () => this.raw.prepare('SELECT outcome FROM journal WHERE hash = ?'));
    const s = this.statements;
    const writes: StateWrites = { ...writesOn(s), addRow: this.declared.addRow };
    // Made once: a sending run commits a group per window of answers, thousands of times.
    const remember = (records: readonly Remembered[], at: number) => {
      this.held?.assertHeld();
      rememberRecords(records, writes, (hash, _endpoint, _orderId, outcome) =>
        s.journal.run(hashBlob(hash), outcomeCode(outcome), at),
      );
    };
    // IMMEDIATE: it reads the run lock first, and a transaction that has read cannot then write once another
    // connection committed (SQLITE_BUSY at once, no busy wait): a run waiting for the lock commits every few ms.
    this.rememberAll = (records, at) =>
      guardState(where, () => transaction(this.raw, () => remember(records, at), 'immediate'));
  }

  /** Opens the store of a namespace in `dir`, creating the folder (private: 0700); null dir: in memory. */
  static open(dir: string | null, baseUrl?: string, options: SqliteOptions = {}): SqliteState {
    if (dir === null) return new SqliteState(null, baseUrl, options);
    privateFolder(dir);
    return new SqliteState(SqliteState.fileOf(dir, baseUrl), baseUrl, options);
  }

  /** The file of a namespace's store in `dir`. */
  static fileOf(dir: string, baseUrl?: string): string {
    return join(dir, `${namespaceOf(baseUrl)}.sqlite`);
  }

  get location(): string | null {
    return this.path;
  }

  /** The database unguarded, for the run lock kept beside the state (stateLock.ts) and its tests. */
  get database(): Database {
    return this.raw;
  }

  /**
   * Beside the state file (the next run sweeps a killed run's folder there); a read-only run's and an
   * in-memory state's in `tempDir`.
   */
  scratch(tempDir: string): RunScratch {
    if (this.path === null || this.options.readOnly === true) return RunScratch.inTemp(tempDir);
    return RunScratch.in(join(this.path, '..', 'tmp'));
  }

  async lock(request: LockRequest): Promise<HeldLock> {
    // The lock's transactions run on the unguarded database: their SQLite failures are named here.
    const where = this.path ?? ':memory:';
    let lock: StateLock;
    try {
      lock = await StateLock.acquire(this.raw, request);
    } catch (cause) {
      throw stateError(cause, where) ?? cause;
    }
    this.held = lock;
    this.recount();
    return {
      release: () => {
        this.held = undefined;
        guardState(where, () => lock.release());
      },
    };
  }

  /** Reads afresh which tables hold anything: the reads of a run skip a table empty before it. */
  recount(): void {
    this.counts = countsOf(this.db);
    this.declared.recount();
  }

  get hasOrders(): boolean {
    return this.counts.orders === 1;
  }

  priorOrder(orderId: string): PriorOrder | null {
    const declared = this.declared.rowsOf(orderId);
    if (!this.hasOrders && this.counts.decisions === 0 && declared === undefined) return null;
    const loaded =
      this.counts.decisions === 0
        ? undefined
        : (this.statements.loaded.get(orderId) as { decision: string } | undefined)?.decision;
    let rows: PriorRow[];
    try {
      rows = this.priorRows.all(orderId, orderId, orderId, orderId);
    } catch (cause) {
      throw stateError(cause, this.path ?? ':memory:') ?? cause;
    }
    return priorOrderOf(rows, loaded, declared);
  }

  claimants(key: string): string[] {
    if (this.counts.deliveries === 0) return [];
    return (this.statements.owners.all(key) as { order_id: string }[]).map((row) => row.order_id);
  }

  acquirerOwners(acquirerIds: ReadonlySet<string>): Promise<AcquirerOwner[]> {
    const found: AcquirerOwner[] = [];
    if (acquirerIds.size === 0) return Promise.resolve(found);
    try {
      // One scan, no index: a chargeback report asks for many ids at once, and no other run reads by acquirer id.
      const rows = arrays<[string, string, string]>(
        this.raw.prepare(
          'SELECT coalesce(updated_acquirer_id, acquirer_id), order_id, payment_id FROM ' +
            'order_payments WHERE coalesce(updated_acquirer_id, acquirer_id) IS NOT NULL',
        ),
      ).iterate();
      for (const [acquirerId, orderId, paymentId] of rows)
        if (acquirerIds.has(acquirerId)) found.push({ acquirerId, orderId, paymentId });
    } catch (cause) {
      throw stateError(cause, this.path ?? ':memory:') ?? cause;
    }
    return Promise.resolve(found);
  }

  ordersByCard(cards: readonly (readonly string[])[]): Promise<{ tuple: number; orderId: string }[]> {
    try {
      return Promise.resolve(ordersByCard(this.db, cards));
    } catch (cause) {
      throw stateError(cause, this.path ?? ':memory:') ?? cause;
    }
  }

  journalOutcome(hash: string): Outcome | undefined {
    if (this.counts.journal === 0) return undefined;
    let outcome: number | undefined;
    try {
      outcome = (this.journaled.get(hashBlob(hash)) as { outcome: number } | undefined)?.outcome;
    } catch (cause) {
      throw stateError(cause, this.path ?? ':memory:') ?? cause;
    }
    return outcome === undefined ? undefined : outcomeOf(outcome);
  }

  /** One transaction: committed (and so kept through kill -9) when this returns. */
  remember(records: readonly Remembered[], now: Date): void {
    if (records.length === 0) return;
    this.rememberAll(records, unixSeconds(now));
  }

  /** Throws when the run's lock is no longer this run's (a write checks it first). */
  assertHeld(): void {
    this.held?.assertHeld();
  }

  /** A run that only reads: nothing may be written to its file. */
  get readOnly(): boolean {
    return this.options.readOnly === true;
  }

  /**
   * The kinds of key a read looks up at all (a table empty before the run is never read): what a writer
   * thread tracks.
   */
  tablesRead(): { order: boolean; claim: boolean; hash: boolean } {
    return {
      order: this.hasOrders || this.counts.decisions !== 0 || this.declared.any,
      claim: this.counts.deliveries !== 0,
      hash: this.counts.journal !== 0,
    };
  }

  durable(): Promise<void> {
    return Promise.resolve();
  }

  get failed(): boolean {
    return false;
  }

  rememberDecisions(
    decisions: readonly { orderId: string; decision: string }[],
    source: string,
    now: Date,
  ): void {
    const at = unixSeconds(now);
    transaction(this.db, () => {
      for (const { orderId, decision } of decisions) this.statements.load.run(orderId, decision, source, at);
    });
    if (decisions.length > 0) this.counts.decisions = 1;
  }

  rememberDecision(orderId: string, decision: string, now = new Date()): void {
    this.rememberDecisions([{ orderId, decision }], 'by hand', now);
  }

  /** Copies rows into a table of this (in-memory) store, replacing what it held: a remote state's local copy. */
  replaceRows(table: string, rows: readonly (readonly unknown[])[]): void {
    transaction(this.db, () => this.declared.replace(table, rows) || this.replaceCore(table, rows));
  }

  private replaceCore(table: string, rows: readonly (readonly unknown[])[]): true {
    if (!CORE_TABLES.includes(table))
      throw new StateError(`no table ${table} in the state`, 'this is a bug in collect');
    this.db.exec(`DELETE FROM ${table}`);
    if (rows.length === 0) return true;
    const insert = this.db.prepare(`INSERT INTO ${table} VALUES (${rows[0]!.map(() => '?').join(', ')})`);
    for (const row of rows) insert.run(...(row as SQLInputValue[]));
    return true;
  }

  close(): void {
    this.db.close();
  }
}

/** The tables of the core endpoints, which a remote state copies into its local one. */
const CORE_TABLES = ['orders', 'order_payments', 'order_deliveries', 'fraud_marks', 'journal', 'decisions'];
