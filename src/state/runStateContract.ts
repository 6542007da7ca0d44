import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import type { Remembered } from './remembered.js';
import type { RunState } from './runState.js';

/**
 * What every state backend promises a run (RunState), as tests: sqlite/sqliteState.test.ts and
 * test/postgresState.test.ts run it against each. `open(baseUrl)` opens (or reopens) the backend's
 * state of that service; `skip` when the backend is not available here.
 */
export interface StateBackend {
  name: string;
  /** A fresh place for a state (a folder, a database), shared by the opens of one test. */
  fresh(): Promise<(baseUrl: string) => Promise<RunState>>;
  skip?: boolean;
}

const now = new Date('2025-01-01T00:00:00Z');
const BASE = 'https://collect.example.com';

const order = (orderId: string, payments: { id: string; acquirerId?: string }[], claims: string[] = []) =>
  ({
    resource: resources.order,
    hash: `h-${orderId}`,
    outcome: 'accepted',
    decision: orderId === 'A' ? 'reject' : undefined,
    facts: { kind: 'order', orderId, key: orderId, evaluate: true, payments, claims } as Facts,
  }) as Remembered;

const update = (kind: 'status' | 'fraud' | 'payment', hash: string, outcome: string, facts: object) =>
  ({
    resource: resources[kind],
    hash,
    outcome,
    facts: { kind, ...facts } as Facts,
  }) as Remembered;

async function remembered(state: RunState, records: Remembered[]): Promise<void> {
  state.remember(records, now);
  await state.durable();
  await state.close();
}

export function runStateContract(backend: StateBackend): void {
  const test = backend.skip ? it.skip : it;
  describe(`the ${backend.name} state keeps what RunState promises`, () => {
    test('remembers orders, payments, deliveries, statuses, fraud marks and decisions across openings', async () => {
      const open = await backend.fresh();
      const first = await open(BASE);
      expect(first.hasOrders).toBe(false);
      await remembered(first, [
        order('A', [{ id: 'P1', acquirerId: 'X' }, { id: 'P2' }], ['D1']),
        update('status', 'h-s', 'accepted', { orderId: 'A', key: 'A', status: 'approved' }),
        update('fraud', 'h-f', 'accepted', { orderId: 'C', key: 'C', signalType: 'chargeback' }),
        update('fraud', 'h-r', 'rejected', { orderId: 'A', key: 'A', signalType: 'chargeback' }),
      ]);
      const again = await open(BASE);
      expect(again.hasOrders).toBe(true);
      expect(again.priorOrder('A')).toEqual({
        created: true,
        hash: 'h-A',
        evaluate: true,
        decision: 'reject',
        lastStatus: 'approved',
        payments: { P1: 'X', P2: null },
        deliveryIds: ['D1'],
        fraudTypes: [],
      });
      expect(again.priorOrder('C')).toMatchObject({ created: false, fraudTypes: ['chargeback'] });
      expect(again.priorOrder('B')).toBeNull();
      expect(again.claimants('D1')).toEqual(['A']);
      await again.close();
    });

    test('keeps each service apart: another base URL sees nothing', async () => {
      const open = await backend.fresh();
      await remembered(await open(BASE), [order('A', [])]);
      const other = await open('https://other.example.com');
      expect(other.priorOrder('A')).toBeNull();
      expect(other.journalOutcome('h-A')).toBeUndefined();
      await other.close();
    });

    test('answers what became of a record: accepted, rejected, failed, or never seen', async () => {
      const open = await backend.fresh();
      await remembered(await open(BASE), [
        order('A', []),
        update('status', 'h-rejected', 'rejected', { orderId: 'A', key: 'A', status: 'approved' }),
        update('status', 'h-failed', 'failed', { orderId: 'A', key: 'A', status: 'declined' }),
      ]);
      const again = await open(BASE);
      expect(again.journalOutcome('h-A')).toBe('accepted');
      expect(again.journalOutcome('h-rejected')).toBe('rejected');
      expect(again.journalOutcome('h-failed')).toBe('failed');
      expect(again.journalOutcome('h-never')).toBeUndefined();
      expect(again.priorOrder('A')?.lastStatus ?? null).toBeNull();
      await again.close();
    });

    test("finds the payments of acquirer ids, a payment update's id over the creation's", async () => {
      const open = await backend.fresh();
      await remembered(await open(BASE), [
        order('A', [{ id: 'P1', acquirerId: 'X' }, { id: 'P2' }]),
        order('B', [{ id: 'P3', acquirerId: 'OLD' }]),
        order('C', [{ id: 'P4', acquirerId: 'X' }]),
        update('payment', 'h-pay', 'accepted', {
          orderId: 'B',
          key: 'P3',
          paymentId: 'P3',
          acquirerId: 'NEW',
        }),
      ]);
      const again = await open(BASE);
      const found = await again.acquirerOwners(new Set(['X', 'NEW', 'OLD', 'NONE']));
      expect(found.sort((a, b) => a.orderId.localeCompare(b.orderId))).toEqual([
        { acquirerId: 'X', orderId: 'A', paymentId: 'P1' },
        { acquirerId: 'NEW', orderId: 'B', paymentId: 'P3' },
        { acquirerId: 'X', orderId: 'C', paymentId: 'P4' },
      ]);
      expect(await again.acquirerOwners(new Set())).toEqual([]);
      await again.close();
    });

    test('finds the orders of card keys, each payment by its own card', async () => {
      const open = await backend.fresh();
      const carded = (orderId: string, cards: string) => {
        const record = order(orderId, [{ id: `${orderId}-1` }, { id: `${orderId}-2` }]);
        return { ...record, facts: { ...record.facts, cards } as Facts };
      };
      await remembered(await open(BASE), [
        carded('A', '2024-04-03 0 1808 12990 1 4242 500'),
        carded('B', '2024-04-03 1 1808 12990'),
        carded('C', '2024-04-04 0 1808 12990'),
      ]);
      const again = await open(BASE);
      const found = await again.ordersByCard([
        ['1808', '12990', '2024-04-03'],
        ['4242', '500', '2024-04-03'],
        ['4242', '500', '2024-04-04'],
      ]);
      expect(found.sort((a, b) => a.tuple - b.tuple || a.orderId.localeCompare(b.orderId))).toEqual([
        { tuple: 0, orderId: 'A' },
        { tuple: 0, orderId: 'B' },
        { tuple: 1, orderId: 'A' },
      ]);
      expect(await again.ordersByCard([])).toEqual([]);
      await again.close();
    });

    test('keeps decisions made outside collect, for orders it never created, whatever their ids hold', async () => {
      const open = await backend.fresh();
      const first = await open(BASE);
      first.rememberDecisions(
        [
          { orderId: 'B', decision: 'reject' },
          { orderId: "Q'uote\\back", decision: 'approve' },
        ],
        'decisions.csv',
        now,
      );
      first.rememberDecision('E', 'reject', now);
      await first.durable();
      await first.close();
      const again = await open(BASE);
      expect(again.priorOrder('B')).toMatchObject({ created: false, decision: 'reject' });
      expect(again.priorOrder("Q'uote\\back")).toMatchObject({ created: false, decision: 'approve' });
      expect(again.priorOrder('E')).toMatchObject({ created: false, decision: 'reject' });
      await again.close();
    });
  });
}
