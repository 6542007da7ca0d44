import { describe, expect, it } from 'vitest';
import { fakeClock } from '../../test/helpers/localServer.js';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import type { HttpClient } from '../send/httpClient.js';
import { Sender } from '../send/sender.js';
import { StateStore, type Remembered } from '../state/stateStore.js';
import { DurableOutcomes } from './durableOutcomes.js';

/** A state in memory that counts what it has committed. */
function countingState() {
  const state = StateStore.open(null, 'http://127.0.0.1:1');
  const committed: Remembered[] = [];
  const remember = state.remember.bind(state);
  state.remember = (records, now) => {
    remember(records, now);
    committed.push(...records);
  };
  return { state, committed };
}

describe('DurableOutcomes: an answer is durable before its slot is reused', () => {
  it('never lets a request start while more than one group of answers is uncommitted', async () => {
    const concurrency = 4;
    const { state, committed } = countingState();
    // A group far larger than the slots, and a timer that never fires: only the slots' waiting can force commits.
    const durable = new DurableOutcomes(state, () => new Date(0), 100, 60_000);
    let answered = 0;
    const uncommittedAtStart: number[] = [];
    const client: HttpClient = {
      send: async () => {
        uncommittedAtStart.push(answered - committed.length);
        await new Promise((resolve) => setImmediate(resolve));
        answered++;
        return { kind: 'answer', status: 200, headers: {}, text: '{}' };
      },
      base: new URL('http://127.0.0.1:1'),
      close: async () => {},
    };
    const sender = new Sender<string>({
      client, concurrency, retries: 0, timeoutMs: 1000, clock: fakeClock(), random: () => 0.5, onStall: durable.onStall,
      onOutcome: (job) => durable.commit({ resource: resources.status, facts: { kind: 'status', orderId: job.orderId, key: job.orderId, status: 'approved' } as Facts, hash: job.context, outcome: 'accepted' }),
    });
    for (let i = 0; i < 50; i++) {
      await sender.submit({ endpoint: 'status', method: 'PUT', path: '/v2/order', body: '{}', orderId: `O${i}`, isCreation: false, location: { file: 'f', index: i, line: i + 1 }, context: `h${i}` });
    }
    await sender.drain();
    durable.flush();
    expect(new Set(committed.map((r) => r.hash)).size).toBe(50);
    // Every uncommitted answer still holds its slot: a new request can only take one of the others.
    expect(Math.max(...uncommittedAtStart)).toBeLessThanOrEqual(concurrency - 1);
    state.close();
  });

  it('resolves a commit only once its answer is in the state', async () => {
    const { state, committed } = countingState();
    const durable = new DurableOutcomes(state, () => new Date(0), 2, 60_000);
    let resolved = false;
    const first = durable.commit({ resource: resources.status, facts: { kind: 'status', orderId: 'A', key: 'A', status: 'approved' } as Facts, hash: 'a', outcome: 'accepted' }).then(() => (resolved = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(resolved).toBe(false);
    expect(committed).toHaveLength(0);
    await durable.commit({ resource: resources.status, facts: { kind: 'status', orderId: 'B', key: 'B', status: 'approved' } as Facts, hash: 'b', outcome: 'accepted' });
    await first;
    expect(committed.map((r) => r.hash)).toEqual(['a', 'b']);
    state.close();
  });
});

describe('DurableOutcomes: a group the state cannot write', () => {
  const answer = { hash: 'h' } as unknown as Remembered;

  it('rejects its commits, and flush never throws (it runs from a timer too)', async () => {
    const full = new Error('the disk is full');
    const state = { remember: () => { throw full; } } as unknown as StateStore;
    const durable = new DurableOutcomes(state, () => new Date(), 8, 1);
    const first = durable.commit(answer);
    const second = durable.commit(answer);
    expect(() => durable.flush()).not.toThrow();
    await expect(first).rejects.toBe(full);
    await expect(second).rejects.toBe(full);
    await expect(durable.commit(answer)).rejects.toBe(full);
  });
});
