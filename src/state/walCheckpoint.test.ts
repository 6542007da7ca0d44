import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { StateStore } from './stateStore.js';
import { type Remembered } from './remembered.js';
import { WalCheckpoint, type Checkpointed } from './walCheckpoint.js';

const accepted = (i: number): Remembered => ({
  resource: resources.status, facts: { kind: 'status', orderId: `O${i}`, key: `O${i}`, status: 'approved' } as Facts,
  hash: i.toString(16).padStart(40, '0'), outcome: 'accepted',
});

describe('WalCheckpoint: the state WAL copied into its file on a worker thread', () => {
  it('checkpoints what the writer commits, leaves the writer its own checkpoints afterwards, and loses nothing', async () => {
    const state = StateStore.open(mkdtempSync(join(tmpdir(), 'collect-wal-')), 'http://127.0.0.1:1');
    const path = state.location!;
    const seen: Checkpointed[] = [];
    let wake = () => {};
    const background = WalCheckpoint.start(state.database, path, (done) => {
      seen.push(done);
      wake();
    });
    // The writer leaves checkpoints to the worker while it runs.
    expect(state.database.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(1000);
    for (let i = 0; i < 200; i++) state.remember([accepted(i)], new Date(0));
    while (seen.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    expect(seen[0]!.checkpointed).toBeGreaterThan(0);
    await background.stop();
    expect(state.database.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    state.close();
    // Closed last, the writer's connection took the WAL in: the file alone holds every answer.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new StateStore(path, 'http://127.0.0.1:1');
    for (const i of [0, 99, 199]) expect(reopened.journalOutcome(accepted(i).hash)).toBe('accepted');
    reopened.close();
  });

  it('gives the checkpoints back to the writer when the worker cannot open the state', async () => {
    const state = StateStore.open(mkdtempSync(join(tmpdir(), 'collect-wal-')), 'http://127.0.0.1:1');
    const background = WalCheckpoint.start(state.database, join(tmpdir(), 'collect-wal-missing', 'none.sqlite'));
    await background.ended;
    expect(state.database.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    state.close();
  });
});
