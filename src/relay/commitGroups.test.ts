import { describe, expect, it } from 'vitest';
import type { SettledEvent } from './outboxSource.js';
import { CommitGroups, type EventCommit } from './commitGroups.js';

const commitOf = (id: number): EventCommit => ({
  rows: [],
  settled: {
    event: { id, endpoint: 'status', body: {}, text: '{}', createdAt: null },
    orderId: `O-${id}`,
    settlement: { state: 'sent' },
  } satisfies SettledEvent,
});
const ids = (group: readonly EventCommit[]) => group.map((commit) => commit.settled.event.id);

describe('CommitGroups', () => {
  it('writes the commits made within the window, while others are in flight, as one group', async () => {
    const groups: number[][] = [];
    const commits = new CommitGroups(
      async (group) => void groups.push(ids(group)),
      () => true,
      20,
    );
    const done = [commits.commit(commitOf(1)), commits.commit(commitOf(2))];
    await new Promise((resolve) => setTimeout(resolve, 5));
    done.push(commits.commit(commitOf(3)));
    await Promise.all(done);
    expect(groups).toEqual([[1, 2, 3]]);
  });

  it('writes at once when no other event is in flight, and groups what comes during a write', async () => {
    const groups: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const commits = new CommitGroups(
      async (group) => {
        groups.push(ids(group));
        if (groups.length === 1) await first;
      },
      () => false,
    );
    const one = commits.commit(commitOf(1));
    await Promise.resolve();
    expect(groups).toEqual([[1]]);
    const later = [commits.commit(commitOf(2)), commits.commit(commitOf(3))];
    release();
    await Promise.all([one, ...later]);
    expect(groups).toEqual([[1], [2, 3]]);
  });

  it('fails only the callers of a group whose write failed; the next group is written', async () => {
    let calls = 0;
    const commits = new CommitGroups(
      async () => {
        if (calls++ === 0) throw new Error('disk full');
      },
      () => false,
    );
    await expect(commits.commit(commitOf(1))).rejects.toThrow('disk full');
    await expect(commits.commit(commitOf(2))).resolves.toBeUndefined();
  });
});
