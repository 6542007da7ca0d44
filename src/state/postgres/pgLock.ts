import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { HEARTBEAT_MS, STALE_MS, describeHolder, labelOf, lockedBy, overlaps, realWorld, type LockRequest, type LockRow, type LockWorld } from '../stateLock.js';

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

  private constructor(private readonly session: pg.ClientBase, private readonly namespace: string, private readonly name: string, private readonly token: string) {
    this.timer = setInterval(() => {
      session.query('UPDATE collect_run_locks SET heartbeat = now() WHERE namespace = $1 AND name = $2 AND token = $3', [namespace, name, token]).catch(() => undefined);
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  static async acquire(session: pg.ClientBase, namespace: string, request: LockRequest, world: LockWorld = realWorld): Promise<PostgresLock> {
    const name = labelOf(request.shard);
    const token = randomUUID();
    const deadline = world.now() + request.waitMs;
    for (;;) {
      const holder = await PostgresLock.tryTake(session, namespace, name, token, request, world);
      if (!holder) return new PostgresLock(session, namespace, name, token);
      if (world.now() >= deadline) throw lockedBy(request, describeHolder(holder, world));
      await world.sleep(Math.min(500, Math.max(1, deadline - world.now())));
    }
  }

  /** One attempt, in one transaction that holds the lock table: the holder found, or undefined once taken. */
  private static async tryTake(session: pg.ClientBase, namespace: string, name: string, token: string, request: LockRequest, world: LockWorld): Promise<LockRow | undefined> {
    await session.query('BEGIN');
    try {
      await session.query('LOCK TABLE collect_run_locks IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await session.query<PgLockRow & { heard_ms: string }>(
        `SELECT name, shard_index, shard_count, token, host, pid, command, since, backend_pid,
                (extract(epoch FROM now() - heartbeat) * 1000)::bigint AS heard_ms,
                EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid) AS session_alive
           FROM collect_run_locks l WHERE namespace = $1`, [namespace]);
      for (const row of rows) {
        const lock: LockRow = { ...row, since: new Date(row.since).toISOString(), heartbeat: world.now() - Number(row.heard_ms) };
        if (!overlaps(lock, request.shard)) continue;
        if (row.session_alive && world.now() - lock.heartbeat <= STALE_MS) {
          await session.query('ROLLBACK');
          return lock;
        }
        await session.query('DELETE FROM collect_run_locks WHERE namespace = $1 AND name = $2 AND token = $3', [namespace, row.name, row.token]);
      }
      await session.query(
        `INSERT INTO collect_run_locks (namespace, name, shard_index, shard_count, token, host, pid, command, since, heartbeat, backend_pid)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now(), now(), pg_backend_pid())`,
        [namespace, name, request.shard?.index ?? null, request.shard?.count ?? null, token, world.host, world.pid, request.command]);
      await session.query('COMMIT');
      return undefined;
    } catch (cause) {
      await session.query('ROLLBACK').catch(() => undefined);
      throw cause;
    }
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.session.query('DELETE FROM collect_run_locks WHERE namespace = $1 AND name = $2 AND token = $3', [this.namespace, this.name, this.token]);
  }
}
