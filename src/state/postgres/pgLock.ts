import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { StateError } from '../stateErrors.js';
import { connectionLost } from './pgConnection.js';
import {
  HEARTBEAT_MS,
  STALE_MS,
  describeHolder,
  labelOf,
  lockedBy,
  overlaps,
  realWorld,
  type LockRow,
  type LockWorld,
} from '../sqlite/stateLock.js';
import type { LockRequest } from '../runState.js';

interface PgLockRow extends LockRow {
  backend_pid: number;
  session_alive: boolean;
}

/**
 * The run lock of a PostgreSQL state: the same rule as SQLite's (per namespace and shard, named
 * to a second run, taken over when stale), held by the run's own database session, so a killed
 * run's lock is taken over as soon as PostgreSQL sees its session gone, on any machine.
 */
export class PostgresLock {
  private readonly timer: NodeJS.Timeout;
  /**
   * A new session to hold the lock with, once its own is lost (pgConnection.ts reconnectPg); absent: a lost
   * session loses the lock.
   */
  private reconnect: ((lost: unknown) => Promise<pg.ClientBase>) | undefined;
  /** Taking the lock again on a new session, after its own was lost: writes wait for it (`held`). */
  private retaking: Promise<void> | undefined;
  private released = false;

  private constructor(
    private session: pg.ClientBase,
    private readonly namespace: string,
    private readonly name: string,
    private readonly token: string,
    private readonly where: string,
  ) {
    this.timer = setInterval(() => {
      this.session
        .query(
          'UPDATE collect_run_locks SET heartbeat = now() WHERE namespace = $1 AND name = $2 AND token = $3',
          [namespace, name, token],
        )
        .catch((cause: unknown) => {
          if (connectionLost(cause)) this.lost(this.session, cause);
        });
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  /**
   * Keeps the lock across a dropped connection. The lock is a row naming its session's backend,
   * so once that session is gone another run may take it over (pgLock tryTake): on a loss the lock
   * is taken again at once on a new session, in one UPDATE that finds this run's token (another
   * run's takeover deleted it, under the table lock, so exactly one of the two wins). Until that
   * is done every write of the state waits (`held`); a takeover stops the run.
   */
  keepWith(reconnect: (lost: unknown) => Promise<pg.ClientBase>): void {
    this.reconnect = reconnect;
  }

  /**
   * A session is gone (its 'error' or 'end', or a failed heartbeat): when it is the lock's, the lock is taken
   * again.
   */
  lost(session: pg.ClientBase, cause: unknown = new Error('Connection terminated')): void {
    if (session !== this.session || this.released || this.retaking || !this.reconnect) return;
    const reconnect = this.reconnect;
    this.retaking = (async () => {
      const session = await reconnect(cause);
      const { rowCount } = await session.query(
        'UPDATE collect_run_locks SET backend_pid = pg_backend_pid(), heartbeat = now() WHERE ' +
          'namespace = $1 AND name = $2 AND token = $3',
        [this.namespace, this.name, this.token],
      );
      if (rowCount === 0) {
        await (session as pg.Client).end().catch(() => undefined);
        throw new StateError(
          `the lock on the state ${this.where} was taken by another run while this run's ` +
            `connection was down; sending stopped so the two do not write at once`,
          'let the other run finish, then run the same command again: at most twice --concurrency ' +
            'answers are sent again',
        );
      }
      const old = this.session;
      this.session = session;
      this.retaking = undefined;
      await (old as pg.Client).end().catch(() => undefined);
    })();
    this.retaking.catch(() => undefined); // surfaced by `held`
  }

  /** Resolves while this run holds the lock (after taking it again if its session was lost); rejects once it cannot. */
  held(): Promise<void> {
    return this.retaking ?? Promise.resolve();
  }

  static async acquire(
    session: pg.ClientBase,
    namespace: string,
    request: LockRequest,
    world: LockWorld = realWorld,
  ): Promise<PostgresLock> {
    const name = labelOf(request.shard);
    const token = randomUUID();
    const deadline = world.now() + request.waitMs;
    for (;;) {
      const holder = await PostgresLock.tryTake(session, namespace, name, token, request, world);
      if (!holder) return new PostgresLock(session, namespace, name, token, request.where);
      if (world.now() >= deadline) throw lockedBy(request, describeHolder(holder, world));
      await world.sleep(Math.min(500, Math.max(1, deadline - world.now())));
    }
  }

  /** One attempt, in one transaction that holds the lock table: the holder found, or undefined once taken. */
  private static async tryTake(
    session: pg.ClientBase,
    namespace: string,
    name: string,
    token: string,
    request: LockRequest,
    world: LockWorld,
  ): Promise<LockRow | undefined> {
    await session.query('BEGIN');
    try {
      await session.query('LOCK TABLE collect_run_locks IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await session.query<PgLockRow & { heard_ms: string }>(
        `SELECT name, shard_index, shard_count, token, host, pid, command, since, backend_pid,
                (extract(epoch FROM now() - heartbeat) * 1000)::bigint AS heard_ms,
                EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid) AS session_alive
           FROM collect_run_locks l WHERE namespace = $1`,
        [namespace],
      );
      for (const row of rows) {
        const lock: LockRow = {
          ...row,
          since: new Date(row.since).toISOString(),
          heartbeat: world.now() - Number(row.heard_ms),
        };
        if (!overlaps(lock, request.shard)) continue;
        if (row.session_alive && world.now() - lock.heartbeat <= STALE_MS) {
          await session.query('ROLLBACK');
          return lock;
        }
        await session.query(
          'DELETE FROM collect_run_locks WHERE namespace = $1 AND name = $2 AND token = $3',
          [namespace, row.name, row.token],
        );
      }
      await session.query(
        `INSERT INTO collect_run_locks (namespace, name, shard_index, shard_count, token, host, pid, \
command, since, heartbeat, backend_pid)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), now(), pg_backend_pid())`,
        [
          namespace,
          name,
          request.shard?.index ?? null,
          request.shard?.count ?? null,
          token,
          world.host,
          world.pid,
          request.command,
        ],
      );
      await session.query('COMMIT');
      return undefined;
    } catch (cause) {
      await session.query('ROLLBACK').catch(() => undefined);
      throw cause;
    }
  }

  /**
   * Gives the lock up; a lock that cannot be reached any more is left to go stale (another run takes it
   * over), never an error.
   */
  async release(): Promise<void> {
    clearInterval(this.timer);
    this.released = true;
    try {
      await this.retaking;
      await this.session.query(
        'DELETE FROM collect_run_locks WHERE namespace = $1 AND name = $2 AND token = $3',
        [this.namespace, this.name, this.token],
      );
    } catch {
      // Its session is gone: PostgreSQL shows no backend for the row, so the next run takes the lock over at once.
    }
  }
}
