import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { transaction, type Database } from '../../platform/sqlite.js';
import { maskUrlCredentials } from '../../core/urlCredentials.js';
import type { LockRequest, Shard } from '../runState.js';
import { StateError } from '../stateErrors.js';
import { processIsAlive } from '../runScratch.js';

/** What a lock needs of the world (the real one by default; tests pass their own). */
export interface LockWorld {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  host: string;
  pid: number;
  isAlive: (pid: number) => boolean;
}

export interface LockRow {
  name: string;
  shard_index: number | null;
  shard_count: number | null;
  token: string;
  host: string;
  pid: number;
  command: string;
  since: string;
  heartbeat: number;
}

/** A live run refreshes its lock this often; a lock not refreshed for STALE_MS belongs to a run that is gone. */
export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 60_000;
const POLL_MS = 500;

export const realWorld: LockWorld = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  host: hostname(),
  pid: process.pid,
  isAlive: processIsAlive,
};

export const labelOf = (shard: Shard | undefined) => (shard ? `shard ${shard.index}/${shard.count}` : 'all');

/** Two runs overlap unless both are shards of the same split with different indexes. */
export function overlaps(row: LockRow, shard: Shard | undefined): boolean {
  if (!shard || row.shard_index === null || row.shard_count === null) return true;
  return row.shard_count !== shard.count || row.shard_index === shard.index;
}

/** A lock whose run is gone: its process is dead on this host, or it has not been heard of for STALE_MS. */
function isStale(row: LockRow, world: LockWorld): boolean {
  return world.now() - row.heartbeat > STALE_MS || (row.host === world.host && !world.isAlive(row.pid));
}

export function describeHolder(row: LockRow, world: LockWorld): string {
  const shard = row.shard_index === null ? '' : `, shard ${row.shard_index}/${row.shard_count}`;
  const heard = Math.round((world.now() - row.heartbeat) / 1000);
  // A lock taken by an older collect may hold a state URL's password in its command line.
  return (
    `pid ${row.pid} on host ${row.host}${shard}, since ${row.since}, last heard of ${heard} s ago: ` +
    `${maskUrlCredentials(row.command)}`
  );
}

/** The refusal of a run that finds its state locked. */
export function lockedBy(request: LockRequest, holder: string): StateError {
  return new StateError(
    `the state ${request.where} is in use by another run (${holder})`,
    `wait for it to finish, or add --lock-wait SECONDS to wait for it; a run that was killed is ` +
      `taken over once its process is gone (same host, or its database session) or it has not been ` +
      `heard of for ${STALE_MS / 1000} s`,
  );
}

/**
 * The exclusive lock of a run on its state (per base URL, since each has its own state, and per
 * shard), held in the state itself so that taking it is one transaction: no two runs can both
 * take it. A live run refreshes it (heartbeat); a killed run's lock is taken over.
 */
export class StateLock {
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly db: Database,
    private readonly name: string,
    readonly token: string,
    world: LockWorld,
  ) {
    const beat = db.prepare('UPDATE run_locks SET heartbeat = ? WHERE name = ? AND token = ?');
    this.timer = setInterval(() => {
      try {
        beat.run(world.now(), name, token);
      } catch {
        // A missed heartbeat is harmless: the lock is stale only after STALE_MS without one.
      }
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Takes the lock, waiting up to `waitMs` for a run that holds it; refuses (StateError, exit 2) naming the holder. */
  static async acquire(db: Database, request: LockRequest, world: LockWorld = realWorld): Promise<StateLock> {
    const name = labelOf(request.shard);
    const token = randomUUID();
    const deadline = world.now() + request.waitMs;
    const take = (): LockRow | undefined => {
      const rows = db.prepare('SELECT * FROM run_locks').all() as unknown as LockRow[];
      for (const row of rows) {
        if (!overlaps(row, request.shard)) continue;
        if (!isStale(row, world)) return row;
        db.prepare('DELETE FROM run_locks WHERE name = ? AND token = ?').run(row.name, row.token);
      }
      db.prepare(
        'INSERT INTO run_locks (name, shard_index, shard_count, token, host, pid, command, since, ' +
          'heartbeat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        name,
        request.shard?.index ?? null,
        request.shard?.count ?? null,
        token,
        world.host,
        world.pid,
        request.command,
        new Date(world.now()).toISOString(),
        world.now(),
      );
      return undefined;
    };
    for (;;) {
      const holder = transaction(db, take, 'immediate');
      if (!holder) return new StateLock(db, name, token, world);
      if (world.now() >= deadline) {
        throw lockedBy(request, describeHolder(holder, world));
      }
      await world.sleep(Math.min(POLL_MS, Math.max(1, deadline - world.now())));
    }
  }

  /** Throws when this run's lock is gone: taken over while the run was stopped (SIGSTOP, a suspended laptop). */
  assertHeld(): void {
    const still = this.db
      .prepare('SELECT 1 FROM run_locks WHERE name = ? AND token = ?')
      .get(this.name, this.token);
    if (still === undefined) {
      throw new StateError(
        'the lock of this run was taken over by another run while this one was stopped: its answers since are not kept',
        'run the same command again once the other run is done: at most the answers of the ' +
          'requests in flight are sent again',
      );
    }
  }

  release(): void {
    clearInterval(this.timer);
    this.db.prepare('DELETE FROM run_locks WHERE name = ? AND token = ?').run(this.name, this.token);
  }
}
