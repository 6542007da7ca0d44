import { describe, expect, it } from 'vitest';
import { StateError } from '../stateErrors.js';
import { STALE_MS, StateLock, type LockWorld } from './stateLock.js';
import { SqliteState } from './sqliteState.js';
import { tempDir } from '../../../test/helpers/tempDir.js';

/** A world whose clock moves only when a run sleeps, with the processes that are alive. */
function world(pid: number, alive: Set<number>, host = 'host-a'): LockWorld & { clock: { t: number } } {
  const clock = { t: 1_000_000 };
  return {
    clock,
    now: () => clock.t,
    sleep: async (ms) => void (clock.t += ms),
    host,
    pid,
    isAlive: (p) => alive.has(p),
  };
}

const store = () => SqliteState.open(tempDir('collect-lock-'), 'https://collect.example.com');
const request = { where: 'the state', waitMs: 0, command: 'collect order a.csv' };

describe('StateLock', () => {
  it('refuses a second run at once, naming the holder: host, pid, command, since when', async () => {
    const state = store();
    const alive = new Set([1, 2]);
    await StateLock.acquire(state.database, request, world(1, alive));
    const refused = StateLock.acquire(
      state.database,
      { ...request, command: 'collect order b.csv' },
      world(2, alive),
    );
    await expect(refused).rejects.toThrow(StateError);
    await expect(refused).rejects.toThrow(
      /pid 1 on host host-a, since 1970-01-01T00:16:40.000Z, last heard of 0 s ago: collect order a.csv/,
    );
    state.close();
  });

  it('lets a waiting run in once the holder releases, and no sooner', async () => {
    const state = store();
    const alive = new Set([1, 2]);
    const first = await StateLock.acquire(state.database, request, world(1, alive));
    const second = world(2, alive);
    const waiting = StateLock.acquire(
      state.database,
      { ...request, waitMs: 5_000 },
      {
        ...second,
        sleep: async (ms) => {
          second.clock.t += ms;
          if (second.clock.t > 1_002_000) first.release();
        },
      },
    );
    await expect(waiting).resolves.toBeInstanceOf(StateLock);
    state.close();
  });

  it(
    'takes over the lock of a killed process on the same host, and of a run not heard of for a ' +
      'minute elsewhere',
    async () => {
      const state = store();
      await StateLock.acquire(state.database, request, world(1, new Set([1])));
      await expect(
        StateLock.acquire(state.database, request, world(2, new Set([2]))),
      ).resolves.toBeInstanceOf(StateLock);
      const other = world(3, new Set([3]), 'host-b');
      await expect(StateLock.acquire(state.database, request, other)).rejects.toThrow(/pid 2 on host host-a/);
      other.clock.t += STALE_MS + 1;
      await expect(StateLock.acquire(state.database, request, other)).resolves.toBeInstanceOf(StateLock);
      state.close();
    },
  );

  it('lets the shards of one split run side by side, but not a shard beside the whole or another split', async () => {
    const state = store();
    const alive = new Set([1, 2, 3, 4]);
    await StateLock.acquire(state.database, { ...request, shard: { index: 0, count: 4 } }, world(1, alive));
    await expect(
      StateLock.acquire(state.database, { ...request, shard: { index: 1, count: 4 } }, world(2, alive)),
    ).resolves.toBeInstanceOf(StateLock);
    await expect(
      StateLock.acquire(state.database, { ...request, shard: { index: 1, count: 4 } }, world(3, alive)),
    ).rejects.toThrow(/shard 1\/4/);
    await expect(
      StateLock.acquire(state.database, { ...request, shard: { index: 2, count: 2 } }, world(3, alive)),
    ).rejects.toThrow(StateError);
    await expect(StateLock.acquire(state.database, request, world(4, alive))).rejects.toThrow(StateError);
    state.close();
  });
});
