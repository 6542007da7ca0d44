import pg from 'pg';
import type { Registry } from '../resources/registry.js';
import { BUCKETS, planBuckets } from './bucketShare.js';
import { MAX_EVENT_BYTES, parseEvent, tooLarge } from './eventLimits.js';
import type { OutboxEvent, OutboxSource, SettledEvent } from './outboxSource.js';
import { checkOutbox, orderIdSql, type OutboxTable } from './pgOutboxSchema.js';

/** The second advisory-lock key every live replica holds shared: counting its holders counts the replicas. */
const PRESENCE = 9999;

/** A table's first advisory-lock key: a 31-bit FNV-1a hash of its name (pg_locks shows it as an oid). */
function tableKey(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return (hash >>> 0) & 0x7fffffff;
}

/**
 * The outbox table in PostgreSQL. Replicas share it through the database: each order belongs to
 * one of BUCKETS buckets (its id's hashtext), each bucket is served by the one replica holding its
 * advisory lock (a session lock: a replica that dies frees its buckets with its connection), and
 * each replica holds an even share of the buckets, counted from a shared presence lock.
 */
export class PgOutbox implements OutboxSource {
  readonly ended = false;
  /** Buckets whose advisory lock this replica holds, and so whose orders it serves. */
  private readonly owned = new Set<number>();
  private notified = false;
  private wake: (() => void) | undefined;
  private readonly key: number;
  private readonly orderId: string;
  private readonly bucketSql: string;
  /** The connection failed (the relay stops, and a restart goes on). */
  lost: Error | undefined;
  /** The last query sent: each waits for it, as one connection runs one query at a time (pg 9 refuses a second). */
  private last: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly client: pg.Client,
    private readonly table: OutboxTable,
    registry: Registry,
    /** Bodies larger than this (bytes of their text) are dead-lettered unread. */
    private readonly maxBytes: number,
  ) {
    this.key = tableKey(table.name);
    this.orderId = orderIdSql(registry);
    this.bucketSql = `((hashtext(${this.orderId}) & 2147483647) % ${BUCKETS})`;
    client.on('notification', () => {
      this.notified = true;
      this.wake?.();
    });
    client.on('error', (cause) => {
      this.lost ??= cause;
      this.wake?.();
    });
  }

  get file(): string {
    return this.table.name;
  }

  /**
   * Runs a query once the one before it is done; settles, reads and heartbeats share the one connection that
   * holds the locks.
   */
  private query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    const result = this.last.then(() => this.client.query<R>(text, values));
    this.last = result.catch(() => undefined);
    return result;
  }

  static async open(
    url: string,
    table: OutboxTable,
    registry: Registry,
    where: string,
    maxBytes = MAX_EVENT_BYTES,
  ): Promise<PgOutbox> {
    const client = new pg.Client({ connectionString: url, application_name: 'collect relay' });
    await client.connect();
    try {
      await checkOutbox(client, table, where);
      await client.query(`LISTEN ${pg.escapeIdentifier(table.channel)}`);
      const outbox = new PgOutbox(client, table, registry, maxBytes);
      await client.query('SELECT pg_advisory_lock_shared($1::int, $2::int)', [outbox.key, PRESENCE]);
      return outbox;
    } catch (cause) {
      await client.end().catch(() => undefined);
      throw cause;
    }
  }

  /** How many buckets this replica serves. */
  get buckets(): number {
    return this.owned.size;
  }

  async pending(
    limit: number,
    queued: ReadonlySet<number> = new Set(),
    bytes = Infinity,
  ): Promise<OutboxEvent[]> {
    if (this.lost) throw this.lost;
    if (this.owned.size === 0) return [];
    // Always from the oldest pending row: a row committed after later ids were read is found here, before
    // any later event of its order (which its application wrote after it committed). The rows queued
    // already are left out in the query (hashed), so that a backlog is not read again at every NOTIFY.
    // Sizes first: a body over the limit is never read (its size is), and a read stops at `bytes` (at least one row).
    const { rows } = await this.query<{
      id: string;
      endpoint: string;
      size: number;
      whole: boolean;
      text: string | null;
      created_at: Date;
    }>(
      `WITH next AS (
         SELECT id, coalesce(octet_length(body::text), 0) AS size FROM ${this.table.sql}
          WHERE relay_state IS NULL AND ${this.bucketSql} = ANY($1::int[]) AND id <> ALL($3::bigint[])
          ORDER BY id LIMIT $2
       ), counted AS (
         SELECT id, size, sum(CASE WHEN size <= $4 THEN size ELSE 0 END) OVER (ORDER BY id) AS upto FROM next
       )
       SELECT o.id, left(o.endpoint, 100) AS endpoint, c.size, c.size <= $4 AS whole, o.created_at,
              CASE WHEN c.size <= $4 THEN coalesce(o.body::text, 'null') END AS text
         FROM counted c JOIN ${this.table.sql} o ON o.id = c.id
        WHERE c.upto - CASE WHEN c.size <= $4 THEN c.size ELSE 0 END < $5::bigint
        ORDER BY o.id`,
      [[...this.owned], limit, [...queued], this.maxBytes, Math.min(bytes, Number.MAX_SAFE_INTEGER)],
    );
    return rows.map((row) => {
      const base = { id: Number(row.id), endpoint: row.endpoint, createdAt: row.created_at };
      if (!row.whole || row.text === null)
        return { ...base, body: undefined, text: '', problem: tooLarge(row.size, this.maxBytes) };
      const parsed = parseEvent(row.text);
      return 'problem' in parsed
        ? { ...base, body: undefined, text: '', problem: parsed.problem }
        : { ...base, body: parsed.value, text: row.text };
    });
  }

  wait(ms: number, signal: AbortSignal): Promise<boolean> {
    if (this.notified || signal.aborted) {
      const news = this.notified;
      this.notified = false;
      return Promise.resolve(news);
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        const news = this.notified;
        this.notified = false;
        resolve(news);
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      this.wake = done;
    });
  }

  async settle(events: readonly SettledEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.query(
      `UPDATE ${this.table.sql} AS o
          SET relay_state = v.state, relay_reason = v.reason::jsonb, relay_order = v.ord, relay_at = now()
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS v(id, state, reason, ord)
        WHERE o.id = v.id`,
      [
        events.map(({ event }) => event.id),
        events.map(({ settlement }) => settlement.state),
        events.map(({ settlement }) =>
          settlement.state === 'sent' ? null : JSON.stringify(settlement.reason),
        ),
        events.map(({ orderId }) => orderId),
      ],
    );
  }

  async heldOrders(): Promise<Map<string, number>> {
    const { rows } = await this.query<{ id: string; relay_order: string }>(
      `SELECT id, relay_order FROM ${this.table.sql}
        WHERE relay_state = 'dead' AND relay_order IS NOT NULL AND endpoint = ANY($1::text[]) ORDER BY id`,
      [this.creationEndpoints],
    );
    return new Map(rows.map((row) => [row.relay_order, Number(row.id)]));
  }

  /** Set by the relay: the endpoints that create orders. */
  creationEndpoints: string[] = [];

  /** The outbox's pending events and the age of the oldest, for the lag metric (every replica's share). */
  async backlog(): Promise<{ pending: number; oldestSeconds: number }> {
    const { rows } = await this.query<{ pending: number; age: number | null }>(
      `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS age
         FROM ${this.table.sql} WHERE relay_state IS NULL`,
    );
    return { pending: rows[0]?.pending ?? 0, oldestSeconds: Math.max(0, rows[0]?.age ?? 0) };
  }

  /**
   * One heartbeat of the sharing: counts the live replicas, then releases buckets above this
   * replica's share or takes free ones below it. `drain` runs before the buckets served change (the
   * relay lets what is in flight finish); returns whether they changed (the relay then re-reads the state).
   */
  async rebalance(drain: () => Promise<void>): Promise<boolean> {
    const { rows } = await this.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1::int::oid AND objid = $2::int::oid
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [this.key, PRESENCE],
    );
    const plan = planBuckets(this.owned, rows[0]?.n ?? 1);
    if (plan.release.length > 0) {
      await drain();
      for (const bucket of plan.release) {
        await this.query('SELECT pg_advisory_unlock($1::int, $2::int)', [this.key, bucket]);
        this.owned.delete(bucket);
      }
      return true;
    }
    const share = Math.ceil(BUCKETS / Math.max(1, rows[0]?.n ?? 1));
    const taken: number[] = [];
    for (const bucket of plan.tryTake) {
      if (this.owned.size + taken.length >= share) break;
      const got = await this.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [
        this.key,
        bucket,
      ]);
      if (got.rows[0]?.ok) taken.push(bucket);
    }
    if (taken.length === 0) return false;
    await drain();
    for (const bucket of taken) this.owned.add(bucket);
    return true;
  }

  async close(): Promise<void> {
    // Ending the session frees its advisory locks: the other replicas take the buckets at their next heartbeat.
    await this.client.end().catch(() => undefined);
  }
}
