import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../test/helpers/localServer.js';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import type { HttpClient } from '../send/httpClient.js';
import { Sender } from '../send/sender.js';
import { openState } from '../state/openState.js';
import type { RunState } from '../state/runState.js';
import { type Remembered } from '../state/remembered.js';
import { DurableOutcomes } from './durableOutcomes.js';

/** A state in memory that counts what it has committed, and in which groups. */
async function countingState() {
  const state = await openState(null, 'http://127.0.0.1:1', { locking: false });
  const committed: Remembered[] = [];
  const groups: string[][] = [];
  const remember = state.remember.bind(state);
  state.remember = (records, now) => {
    remember(records, now);
    committed.push(...records);
    groups.push(records.map((r) => r.hash));
  };
  return { state, committed, groups };
}

const answer = (hash: string): Remembered => ({
  resource: resources.status,
  facts: { kind: 'status', orderId: hash, key: hash, status: 'approved' } as Facts,
  hash,
  outcome: 'accepted',
});

describe('DurableOutcomes: at most `window` answers not yet durable have their slot free again', () => {
  for (const window of [1, 4]) {
    it(`never lets a request start while more than the slots and ${window} answers are uncommitted`, async () => {
      const concurrency = 4;
      const { state, committed } = await countingState();
      const durable = new DurableOutcomes(state, () => new Date(0), window);
      let answered = 0;
      const uncommittedAtStart: number[] = [];
      const client: HttpClient = {
        send: async () => {
          uncommittedAtStart.push(answered - committed.length);
          // Answers come within one turn of the event loop: the background commit never runs on its own.
          await Promise.resolve();
          answered++;
          return { kind: 'answer', status: 200, headers: {}, text: '{}' };
        },
        base: new URL('http://127.0.0.1:1'),
        close: async () => {},
      };
      const sender = new Sender<string>({
        client,
        concurrency,
        retries: 0,
        timeoutMs: 1000,
        clock: fakeClock(),
        random: () => 0.5,
        onStall: durable.onStall,
        onOutcome: (job) => durable.commit(answer(job.context)),
      });
      for (let i = 0; i < 50; i++) {
        await sender.submit({
          endpoint: 'status',
          method: 'PUT',
          path: '/v2/order',
          body: '{}',
          orderId: `O${i}`,
          isCreation: false,
          location: { file: 'f', index: i, line: i + 1 },
          context: `h${i}`,
        });
      }
      await sender.drain();
      durable.flush();
      expect(new Set(committed.map((r) => r.hash)).size).toBe(50);
      // A kill at any moment loses the answers of the other slots and of the window: what a re-run sends again.
      expect(Math.max(...uncommittedAtStart)).toBeLessThanOrEqual(concurrency - 1 + window);
      state.close();
    });
  }

  it(
    'commits a full group of `window` answers at the end of the turn; a slot past the window waits ' +
      'until it is durable',
    async () => {
      const { state, groups } = await countingState();
      const durable = new DurableOutcomes(state, () => new Date(0), 2);
      expect(durable.commit(answer('a'))).toBeUndefined();
      expect(durable.commit(answer('b'))).toBeUndefined();
      expect(durable.backlog).toBe(2);
      // c comes in the same turn: its slot is held back until the window is durable again.
      const third = durable.commit(answer('c'));
      expect(third).toBeInstanceOf(Promise);
      expect(groups).toEqual([]);
      await third;
      expect(groups).toEqual([['a', 'b', 'c']]);
      expect(durable.backlog).toBe(0);
      state.close();
    },
  );

  it('commits fewer than `window` answers on its own, after a short wait', async () => {
    const { state, groups } = await countingState();
    const durable = new DurableOutcomes(state, () => new Date(0), 8);
    durable.commit(answer('a'));
    durable.commit(answer('b'));
    expect(groups).toEqual([]);
    await new Promise<void>((resolve) => {
      const poll = () => (groups.length > 0 ? resolve() : setTimeout(poll, 1));
      poll();
    });
    expect(groups).toEqual([['a', 'b']]);
    state.close();
  });

  it(
    'holds back slots while a remote state has not yet made the window durable, and frees them as it ' +
      'does',
    async () => {
      const { state, groups } = await countingState();
      const remoteCommits: (() => void)[] = [];
      state.durable = () => new Promise<void>((resolve) => remoteCommits.push(resolve));
      const durable = new DurableOutcomes(state, () => new Date(0), 2);
      durable.commit(answer('a'));
      durable.commit(answer('b'));
      await new Promise((resolve) => setImmediate(resolve));
      let freed = 0;
      void durable.commit(answer('c'))!.then(() => freed++);
      void durable.commit(answer('d'))!.then(() => freed++);
      await new Promise((resolve) => setImmediate(resolve));
      // Both groups are written; neither is durable yet, so c and d wait.
      expect(groups).toEqual([
        ['a', 'b'],
        ['c', 'd'],
      ]);
      expect(freed).toBe(0);
      remoteCommits[0]!();
      await new Promise((resolve) => setImmediate(resolve));
      // a and b durable: c and d are the only answers not yet durable, within the window.
      expect(freed).toBe(2);
      state.close();
    },
  );

  it('commits at once when every slot waits, and on flush', async () => {
    const { state, groups } = await countingState();
    const durable = new DurableOutcomes(state, () => new Date(0), 8);
    durable.commit(answer('a'));
    durable.onStall();
    durable.commit(answer('b'));
    durable.flush();
    durable.flush();
    expect(groups).toEqual([['a'], ['b']]);
    state.close();
  });
});

describe('DurableOutcomes: a group the state cannot write', () => {
  it(
    'rejects the commits waiting for it and every later one, never throws from flush, and says so ' +
      'once drained',
    async () => {
      const full = new Error('the disk is full');
      const state = {
        remember: () => {
          throw full;
        },
      } as unknown as RunState;
      const durable = new DurableOutcomes(state, () => new Date(), 1);
      expect(durable.commit(answer('a'))).toBeUndefined();
      const waiting = durable.commit(answer('b'));
      expect(() => durable.flush()).not.toThrow();
      await expect(waiting).rejects.toBe(full);
      await expect(durable.commit(answer('c'))).rejects.toBe(full);
      expect(() => durable.throwIfFailed()).toThrow(full);
    },
  );
});
