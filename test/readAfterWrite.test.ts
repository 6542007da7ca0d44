import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { rememberOnThread } from '../src/fast/threadedState.js';
import { resources } from '../src/resources/registry.js';
import type { Facts } from '../src/resources/resource.js';
import { openState } from '../src/state/openState.js';
import type { Remembered } from '../src/state/remembered.js';
import type { RunState } from '../src/state/runState.js';
import { describeWith } from './helpers/withPrerequisite.js';
import { startTestPostgres, type TestPostgres } from './helpers/postgres.js';
import { tempDir } from './helpers/tempDir.js';

/**
 * The state's read-after-write guarantee, through the interface a run uses, against each backend:
 * every read a run makes (a record's journal outcome, an order's prior facts, the claimants of a
 * delivery id) sees every write made before it, by this run or by an earlier one killed with -9.
 */
const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());

const BASE = 'https://collect.example.com';
const now = new Date('2025-01-01T00:00:00Z');
const lockRequest = (where: string) => ({ where, waitMs: 0, command: 'collect test' });

const order = (id: string): Remembered => ({
  resource: resources.order,
  hash: `c0${id.replace(/\D/g, '').padStart(4, '0')}`,
  outcome: 'accepted',
  facts: { kind: 'order', orderId: id, key: id, evaluate: false, payments: [], claims: [`D-${id}`] } as Facts,
});
const status = (id: string, value: string): Remembered => ({
  resource: resources.status,
  hash: `5${value.length}${id.replace(/\D/g, '').padStart(4, '0')}`,
  outcome: 'accepted',
  facts: { kind: 'status', orderId: id, key: id, status: value } as Facts,
});
const rejected = (id: string): Remembered => ({
  resource: resources.fraud,
  hash: `f0${id.replace(/\D/g, '').padStart(4, '0')}`,
  outcome: 'rejected',
  facts: { kind: 'fraud', orderId: id, key: id, signalType: 'chargeback' } as Facts,
});

/** Every read the run makes of what `written` says, checked against it. */
function expectSeen(state: RunState, written: Remembered[]): void {
  for (const record of written) {
    expect(state.journalOutcome(record.hash), `journal of ${record.hash}`).toBe(record.outcome);
    const { orderId } = record.facts;
    if (record.resource === resources.order) {
      expect(state.priorOrder(orderId), `order ${orderId}`).toMatchObject({
        created: true,
        hash: record.hash,
      });
      expect(state.claimants(`D-${orderId}`)).toEqual([orderId]);
    }
  }
  const statuses = new Map(
    written
      .filter((r) => r.resource === resources.status)
      .map((r) => [r.facts.orderId, (r.facts as Facts & { status: string }).status]),
  );
  for (const [orderId, value] of statuses)
    expect(state.priorOrder(orderId)?.lastStatus, `status of ${orderId}`).toBe(value);
}

const backends: [string, () => Promise<string> | string][] = [['SQLite', () => tempDir('collect-raw-')]];
if (server) backends.push(['PostgreSQL', () => server.database()]);
// Without a server its tests are not run: one test stands for them, counted as not run (withPrerequisite.ts).
else
  describeWith('postgres')('the PostgreSQL state: a read sees every earlier write', () =>
    it('is read', () => {}),
  );

describe.each(backends)('the %s state: a read sees every earlier write', (_name, location) => {
  it.each(['at once', 'on the writer thread'] as const)(
    'of this run (%s), group after group, answers about orders created earlier in the run',
    async (write) => {
      const spec = await location();
      // An earlier run: every table the run reads holds something.
      const earlier = await openState(spec, BASE, { locking: true });
      const held = await earlier.lock(lockRequest(String(spec)));
      earlier.remember([order('ORD-0'), status('ORD-0', 'pending'), rejected('ORD-0')], now);
      await earlier.durable();
      await held.release();
      await earlier.close();

      const opened = await openState(spec, BASE, { locking: true });
      const state = write === 'at once' ? opened : rememberOnThread(opened);
      const lock = await state.lock(lockRequest(String(spec)));
      const written: Remembered[] = [order('ORD-0'), status('ORD-0', 'pending'), rejected('ORD-0')];
      for (let group = 1; group <= 12; group++) {
        // A group: new orders, a status of an order created one group earlier, a rejected mark.
        const records = [
          order(`ORD-${group}`),
          order(`ORD-${group + 100}`),
          status(`ORD-${group - 1}`, `s${group}`),
          rejected(`ORD-${group}`),
        ];
        state.remember(records, now);
        written.push(...records);
        expectSeen(state, written);
      }
      await state.durable();
      await lock.release();
      await state.close();
      const later = await openState(spec, BASE, { locking: false });
      expectSeen(later, written);
      await later.close();
    },
  );

  it('of a run killed with -9: every group it was told is kept', async () => {
    const spec = await location();
    const script = `
      const { openState } = await import(${JSON.stringify(join(process.cwd(), 'dist/state/openState.js'))});
      const { resources } = await import(${JSON.stringify(join(process.cwd(), 'dist/resources/registry.js'))});
      const state = await openState(process.argv[1], ${JSON.stringify(BASE)}, { locking: true });
      await state.lock({ where: 'x', waitMs: 0, command: 'killed' });
      for (let i = 0; ; i++) {
        const id = 'ORD-' + i;
        state.remember([{ resource: resources.order, hash: 'c0' + String(i).padStart(4, '0'), outcome: 'accepted',
          facts: { kind: 'order', orderId: id, key: id, evaluate: false, payments: [], claims: ['D-' + id] } \
}], new Date(0));
        await state.durable();
        process.stdout.write(i + '\\n');
      }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, String(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let kept = -1;
    for await (const line of createInterface({ input: child.stdout })) {
      kept = Number(line);
      if (kept >= 40) break;
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // The next run takes the dead run's lock over, and sees what it was told is kept.
    const state = await openState(spec, BASE, { locking: true });
    const lock = await state.lock(lockRequest(String(spec)));
    expectSeen(
      state,
      Array.from({ length: kept + 1 }, (_, i) => order(`ORD-${i}`)),
    );
    await lock.release();
    await state.close();
  });
});
