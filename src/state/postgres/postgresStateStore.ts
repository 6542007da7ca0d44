import type pg from 'pg';
import { maskUrlCredentials } from '../../core/urlCredentials.js';
import { hashBlob, outcomeCode } from '../compactRows.js';
import { StateError } from '../stateErrors.js';
import type { Shard } from '../stateLock.js';
import type { LockRequest } from '../stateLock.js';
import { StateStore } from '../stateStore.js';
import { namespaceOf, rememberRecords, type Remembered } from '../remembered.js';
import { connectionLost, connectPg, reconnectPg } from './pgConnection.js';
import { PostgresLock } from './pgLock.js';
import { migratePostgres } from './pgSchema.js';
import { PgGroupWriter } from './pgGroupWriter.js';
import { PgWriteGroup } from './pgWrites.js';

/** The URL without its password (in the user part or as ?password=), for messages. */
export const shownUrl = (url: string): string => maskUrlCredentials(url);

/**
 * The state kept in PostgreSQL, for a team, CI runners without a disk that lasts, and the shards
 * of one backfill. A run reads a copy of its namespace (its shard's orders only) into the embedded
 * store once, so the flow rules look up nothing remotely per record; every group of answers is
 * written back in a transaction (pgGroupWriter.ts), and `durable()` resolves once it is committed
 * (the kill -9 guarantee of run/durableOutcomes.ts holds as with SQLite).
 */
export class PostgresStateStore extends StateStore {
  private readonly groupWriter: PgGroupWriter;
  private held: PostgresLock | undefined;

  private constructor(
    private session: pg.Client, private writer: pg.Client, private readonly url: string, private readonly namespace: string,
    readonly where: string, private readonly shard: Shard | undefined, baseUrl?: string,
  ) {
    super(null, baseUrl);
    // A dropped connection (a restart, a failover, pg_terminate_backend) is made again and the run goes on, its lock held again first.
    this.groupWriter = new PgGroupWriter(writer, {
      before: () => this.held?.held() ?? Promise.resolve(),
      recover: async (lost) => {
        await this.writer.end().catch(() => undefined);
        this.writer = await reconnectPg(this.url, this.where, lost);
        this.held?.lost(this.session, lost); // its session most likely went with it: the lock is taken again on a new one
        await this.held?.held();
        return this.writer;
      },
    });
  }

  /** Connects, brings the schema up to date, and (unless the run will lock first) reads the namespace. */
  static async connect(url: string, baseUrl: string | undefined, options: { shard?: Shard; loadNow: boolean }): Promise<PostgresStateStore> {
    const where = shownUrl(url);
    let store: PostgresStateStore | undefined;
    const onLost = (client: pg.Client) => store?.held?.lost(client);
    const session = await connectPg(url, where, onLost);
    let writer: pg.Client | undefined;
    try {
      writer = await connectPg(url, where);
      await migratePostgres(writer, where);
      store = new PostgresStateStore(session, writer, url, namespaceOf(baseUrl), where, options.shard, baseUrl);
      if (options.loadNow) await store.load();
      return store;
    } catch (cause) {
      await session.end().catch(() => undefined);
      await writer?.end().catch(() => undefined);
      throw cause instanceof StateError ? cause : new StateError(`the state ${where} cannot be used: ${(cause as Error).message}`, 'check the database and the rights of its user (CREATE TABLE on first use)');
    }
  }

  override get location(): string {
    return this.where;
  }

  /** Takes the run's lock in the database, then reads what the state holds, so a run that waited sees what the other wrote. */
  override async lock(request: LockRequest): Promise<{ release(): Promise<void> }> {
    try {
      this.held = await PostgresLock.acquire(this.session, this.namespace, { ...request, where: this.where });
      this.held.keepWith(async (lost) => (this.session = await reconnectPg(this.url, this.where, lost, (client) => this.held?.lost(client))));
      await this.load();
    } catch (cause) {
      if (cause instanceof StateError) throw cause;
      throw new StateError(`the state ${this.where} cannot be read: ${(cause as Error).message}`, connectionLost(cause) ? 'check the database, then run the same command again' : 'check the database and the rights of its user');
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
    const read = async (sql: string) => (await this.writer.query({ text: `${sql} WHERE ${where}`, values: params, rowMode: 'array' })).rows as unknown[][];
    // PostgreSQL keeps hex hashes, outcome names and timestamps; the embedded store their compact forms (compactRows.ts).
    const seconds = 'floor(extract(epoch FROM at))::float8';
    const tables: [string, unknown[][]][] = [
      ['INSERT INTO orders (order_id, hash, evaluate, decision, last_status) VALUES (?, ?, ?, ?, ?)',
        (await read('SELECT order_id, hash, evaluate::int, decision, last_status FROM collect_orders')).map(([id, hash, ...rest]) => [id, hashBlob(hash as string), ...rest])],
      ['INSERT INTO order_payments (order_id, payment_id, acquirer_id, updated_acquirer_id) VALUES (?, ?, ?, ?)', await read('SELECT order_id, payment_id, acquirer_id, updated_acquirer_id FROM collect_order_payments')],
      ['INSERT INTO order_deliveries (order_id, delivery_id) VALUES (?, ?)', await read('SELECT order_id, delivery_id FROM collect_order_deliveries')],
      ['INSERT INTO fraud_marks (order_id, signal_type) VALUES (?, ?)', await read('SELECT order_id, signal_type FROM collect_fraud_marks')],
      ['INSERT INTO journal (hash, outcome, at) VALUES (?, ?, ?)',
        (await read(`SELECT hash, outcome, ${seconds} FROM collect_journal`)).map(([hash, outcome, at]) => [hashBlob(hash as string), outcomeCode(outcome as Remembered['outcome']), at])],
      ['INSERT INTO decisions (order_id, decision, source, at) VALUES (?, ?, ?, ?)', await read(`SELECT order_id, decision, source, ${seconds} FROM collect_decisions`)],
    ];
    this.db.transaction(() => {
      for (const table of ['orders', 'order_payments', 'order_deliveries', 'fraud_marks', 'journal', 'decisions']) this.db.exec(`DELETE FROM ${table}`);
      for (const [sql, rows] of tables) {
        const insert = this.db.prepare(sql);
        for (const row of rows) insert.run(...row);
      }
    })();
    this.recount();
  }

  override remember(records: readonly Remembered[], now: Date): void {
    super.remember(records, now);
    const group = new PgWriteGroup(this.namespace, now.toISOString());
    rememberRecords(records, group.writes, group.journalWrite);
    this.groupWriter.enqueue(group);
  }

  override rememberDecisions(decisions: readonly { orderId: string; decision: string }[], source: string, now: Date): void {
    super.rememberDecisions(decisions, source, now);
    const group = new PgWriteGroup(this.namespace, now.toISOString());
    for (const { orderId, decision } of decisions) group.loadDecision(orderId, decision, source);
    this.groupWriter.enqueue(group);
  }

  override durable(): Promise<void> {
    return this.groupWriter.settled().then(() => {
      const failure = this.groupWriter.failed;
      if (failure instanceof StateError) throw failure;
      if (failure) {
        throw new StateError(`the state ${this.where} failed: ${failure.message}; sending stopped`, 'check the database, then run the same command again: at most the answers of the requests in flight are sent again');
      }
    });
  }

  override get failed(): boolean {
    return this.groupWriter.failed !== undefined;
  }

  override async close(): Promise<void> {
    await this.groupWriter.settled();
    await this.held?.release().catch(() => undefined);
    super.close();
    await this.session.end().catch(() => undefined);
    await this.writer.end().catch(() => undefined);
  }
}
