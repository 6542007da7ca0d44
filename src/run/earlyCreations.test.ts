import { describe, expect, it } from 'vitest';
import { flowRules } from '../flow/rules/index.js';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { openState } from '../state/openState.js';
import type { RunState } from '../state/runState.js';
import type { CheckRecordsOptions, RecordSink } from './checkOptions.js';
import { EarlyCreations } from './earlyCreations.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const order = (orderId: string) =>
  resources.order.facts({ id: orderId, payments: [{ id: `P-${orderId}` }] }) as Facts;
const status = (orderId: string) => resources.status.facts({ id: orderId, status: 'approved' }) as Facts;
const now = new Date('2024-06-01T00:00:00Z');

function run(state: RunState, extra: Partial<CheckRecordsOptions> = {}) {
  const inputs = [{ resource: resources.order }, { resource: resources.status }];
  return EarlyCreations.of({
    state,
    remember: true,
    now,
    rules: flowRules,
    inputs,
    ...extra,
  } as CheckRecordsOptions);
}

describe('EarlyCreations', () => {
  it('remembers the first valid creation of an order the state does not know, and nothing else', async () => {
    // An earlier run's state, which knows one order.
    const dir = tempDir('collect-early-');
    const earlier = await openState(dir, undefined, { locking: false });
    earlier.remember(
      [{ facts: order('KNOWN'), resource: resources.order, hash: 'h-known', outcome: 'accepted' }],
      now,
    );
    earlier.close();
    const state = await openState(dir, undefined, { locking: false });
    const early = run(state)!;
    const taken = [
      early.take(resources.order, order('A'), 'h-a', true),
      early.take(resources.order, order('A'), 'h-a2', true), // a second creation of A: pass 2 judges it
      early.take(resources.order, order('B'), 'h-b', false), // schema-invalid
      early.take(resources.order, order('B'), 'h-b', true), // B's id was seen (its invalid creation)
      early.take(resources.status, status('C'), 'h-c', true), // an update
      early.take(resources.order, order('KNOWN'), 'h-k', true), // an order an earlier run created
    ];
    expect(taken).toEqual([true, false, false, false, false, false]);
    expect(state.priorOrder('A')).toBeNull();
    early.flush();
    expect(state.priorOrder('A')).toMatchObject({ created: true, hash: 'h-a' });
    state.close();
  });

  it('is for dry runs only: a run that sends remembers what the service answered', async () => {
    const state = await openState(null, undefined, { locking: false });
    expect(run(state, { sink: {} as RecordSink })).toBeUndefined();
    expect(run(state, { remember: false })).toBeUndefined();
    state.close();
  });
});
