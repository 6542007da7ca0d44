import type pg from 'pg';
import type { PriorOrder } from '../../flow/timeline.js';
import type { RememberedTable } from '../../resources/resource.js';
import { maskUrlCredentials } from '../../core/urlCredentials.js';
import { hashBlob, outcomeCode, type Outcome } from '../compactRows.js';
import { StateError } from '../stateErrors.js';
import type { AcquirerOwner, LockRequest, RunState, Shard } from '../runState.js';
import { RunScratch } from '../runScratch.js';
import { SqliteState } from '../sqlite/sqliteState.js';
import { namespaceOf, rememberRecords, type Remembered } from '../remembered.js';
import { connectionLost, connectPg, pgStateError, reconnectPg } from './pgConnection.js';
import { PostgresLock } from './pgLock.js';
import { migratePostgres, migrateDeclared, pgTable } from './pgSchema.js';
import { PgGroupWriter } from './pgGroupWriter.js';
import { PgWriteGroup } from './pgWrites.js';

/** The URL without its password (in the user part or as ?password=), for messages. */
export const shownUrl = (url: string): string => maskUrlCredentials(url);

/**
 * The state kept in PostgreSQL, for a team, CI runners without a disk that lasts, and the shards
 * of one backfill. A run reads a copy of its namespace (its shard's orders only) into the embedded
 * store (an in-memory SqliteState) once, so the flow rules look up nothing remotely per record;
 * every group of answers is written to both, in a transaction here (pgGroupWriter.ts), and
 * `durable()` resolves once it is committed (the kill -9 guarantee of run/durableOutcomes.ts).
 */
export class PostgresState implements RunState {
  private readonly groupWriter: PgGroupWriter;
  private held: PostgresLock | undefined;
  /** What the run reads: a copy of the namespace, kept up to date with every write. */
  private readonly local: SqliteState;

  private constructor(
    private session: pg.Client,
    private writer: pg.Client,
    private readonly url: string,
    private readonly namespace: string,
    readonly where: string,
    private readonly shard: Shard | undefined,
    private readonly tables: readonly RememberedTable[],
    baseUrl?: string,
  ) {
    this.local = new SqliteState(null, baseUrl, { tables });
    // A dropped connection (a restart, a failover, pg_terminate_backend) is made again and the run goes on,
    // its lock held again first.
    this.groupWriter = new PgGroupWriter(writer, {
      before: () => this.held?.held() ?? Promise.resolve(),
      recover: async (lost) => {
        await this.writer.end().catch(() => undefined);
        this.writer = await reconnectPg(this.url, this.where, lost);
        // its session most likely went with it: the lock is taken again on a new one
        this.held?.lost(this.session, lost);
        await this.held?.held();
        return this.writer;
      },
    });
  }

  /** Connects, brings the schema up to date, and (unless the run will lock first) reads the namespace. */
  static async connect(
    url: string,
    baseUrl: string | undefined,
    options: { shard?: Shard; loadNow: boolean; tables?: readonly RememberedTable[] },
  ): Promise<PostgresState> {
    const where = shownUrl(url);
    let store: PostgresState | undefined;
    const onLost = (client: pg.Client) => store?.held?.lost(client);
    const session = await connectPg(url, where, onLost);
    let writer: pg.Client | undefined;
    try {
      writer = await connectPg(url, where);
      await migratePostgres(writer, where);
      await migrateDeclared(writer, options.tables ?? []);
      store = new PostgresState(
        session,
        writer,
        url,
        namespaceOf(baseUrl),
        where,
        options.shard,
        options.tables ?? [],
        baseUrl,
      );
      if (options.loadNow) await store.load();
      return store;
    } catch (cause) {
      await session.end().catch(() => undefined);
      await writer?.end().catch(() => undefined);
      throw (
        pgStateError(cause, where) ??
        new StateError(
          `the state ${where} cannot be used: ${(cause as Error).message}`,
          'check the database and the rights of its user (CREATE TABLE on first use)',
        )
      );
    }
  }

  get location(): string {
    return this.where;
  }

  /** Nothing of the run is kept beside a remote state: its throwaway files go in the temporary folder. */
  scratch(tempDir: string): RunScratch {
    return RunScratch.inTemp(tempDir);
  }

  /**
   * Takes the run's lock in the database, then reads what the state holds, so a run that waited sees what the
   * other wrote.
   */
  async lock(request: LockRequest): Promise<{ release(): Promise<void> }> {
    try {
      this.held = await PostgresLock.acquire(this.session, this.namespace, { ...request, where: this.where });
      this.held.keepWith(
        async (lost) =>
          (this.session = await reconnectPg(this.url, this.where, lost, (client) => this.held?.lost(client))),
      );
      await this.load();
    } catch (cause) {
      const known = pgStateError(cause, this.where);
      if (known) throw known;
      throw new StateError(
        `the state ${this.where} cannot be read: ${(cause as Error).message}`,
        connectionLost(cause)
          ? 'check the database, then run the same command again'
          : 'check the database and the rights of its user',
      );
    }
    return this.held;
  }

  /** Copies the namespace's rows (one shard's, when sharded) into the embedded store. */
  private async load(): Promise<void> {
    const params: unknown[] = [this.namespace];
    let where = 'namespace = $1';
    if (this.shard) {
      where += ' AND shard_key % $2 = $3';
      params.push(this.shard.count, this.shard.index);
    }
    const read = async (sql: string) =>
      (await this.writer.query({ text: `${sql} WHERE ${where}`, values: params, rowMode: 'array' }))
        .rows as unknown[][];
    // PostgreSQL keeps hex hashes, outcome names and timestamps; the embedded store their compact forms
    // (compactRows.ts).
    const seconds = 'floor(extract(epoch FROM at))::float8';
    // Each table's rows in the order of its columns in the embedded store.
    const tables: [string, unknown[][]][] = [
      [
        'orders',
        (await read('SELECT order_id, hash, evaluate::int, decision, last_status FROM collect_orders')).map(
          ([id, hash, ...rest]) => [id, hashBlob(hash as string), ...rest],
        ),
      ],
      [
        'order_payments',
        await read(
          'SELECT order_id, payment_id, acquirer_id, updated_acquirer_id, last_four, value_cents, sale_date ' +
            'FROM collect_order_payments',
        ),
      ],
      ['order_deliveries', await read('SELECT order_id, delivery_id FROM collect_order_deliveries')],
      ['fraud_marks', await read('SELECT order_id, signal_type FROM collect_fraud_marks')],
      [
        'journal',
        (await read(`SELECT hash, outcome, ${seconds} FROM collect_journal`)).map(([hash, outcome, at]) => [
          hashBlob(hash as string),
          outcomeCode(outcome as Outcome),
          at,
        ]),
      ],
      ['decisions', await read(`SELECT order_id, decision, source, ${seconds} FROM collect_decisions`)],
    ];
    for (const table of this.tables) {
      tables.push([
        table.name,
        await read(`SELECT order_id, ${table.columns.join(', ') || 'NULL'} FROM ${pgTable(table)}`),
      ]);
    }
    for (const [table, rows] of tables) this.local.replaceRows(table, rows);
    this.local.recount();
  }

  /** Re-reads the namespace once this process's own writes are committed: what other relay replicas wrote is seen. */
  async refresh(): Promise<void> {
    await this.groupWriter.settled();
    await this.load();
  }

  recount(): void {
    this.local.recount();
  }

  get hasOrders(): boolean {
    return this.local.hasOrders;
  }

  priorOrder(orderId: string): PriorOrder | null {
    return this.local.priorOrder(orderId);
  }

  claimants(key: string): string[] {
    return this.local.claimants(key);
  }

  /** From the namespace's copy the run read (every payment of this shard's orders), kept up to date with its writes. */
  acquirerOwners(acquirerIds: ReadonlySet<string>): Promise<AcquirerOwner[]> {
    return this.local.acquirerOwners(acquirerIds);
  }

  ordersByCard(cards: readonly (readonly string[])[]): Promise<{ tuple: number; orderId: string }[]> {
    return this.local.ordersByCard(cards);
  }

  journalOutcome(hash: string): Outcome | undefined {
    return this.local.journalOutcome(hash);
  }

  /** Written to the local copy at once (later reads see it), and to the database in the next transaction. */
  remember(records: readonly Remembered[], now: Date): void {
    this.local.remember(records, now);
    const group = new PgWriteGroup(this.namespace, now.toISOString());
    rememberRecords(records, group.writes, group.journalWrite);
    this.groupWriter.enqueue(group);
  }

  rememberDecisions(
    decisions: readonly { orderId: string; decision: string }[],
    source: string,
    now: Date,
  ): void {
    this.local.rememberDecisions(decisions, source, now);
    const group = new PgWriteGroup(this.namespace, now.toISOString());
    for (const { orderId, decision } of decisions) group.loadDecision(orderId, decision, source);
    this.groupWriter.enqueue(group);
  }

  rememberDecision(orderId: string, decision: string, now = new Date()): void {
    this.rememberDecisions([{ orderId, decision }], 'by hand', now);
  }

  durable(): Promise<void> {
    return this.groupWriter.settled().then(() => {
      const failure = this.groupWriter.failed;
      if (failure instanceof StateError) throw failure;
      if (failure) {
        throw new StateError(
          `the state ${this.where} failed: ${failure.message}; sending stopped`,
          'check the database, then run the same command again: at most the answers of the ' +
            'requests in flight are sent again',
        );
      }
    });
  }

  get failed(): boolean {
    return this.groupWriter.failed !== undefined;
  }

  async close(): Promise<void> {
    await this.groupWriter.settled();
    await this.held?.release().catch(() => undefined);
    this.local.close();
    await this.session.end().catch(() => undefined);
    await this.writer.end().catch(() => undefined);
  }
}
