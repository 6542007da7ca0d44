import { describe, expect, it } from 'vitest';
import { SandboxStore } from './sandboxStore.js';

describe('SandboxStore within --keep-mb', () => {
  it('lets the least recently used orders go past its budget, keeping their ids, then counts the ids it drops', () => {
    const store = new SandboxStore(1_000);
    store.create('A', { id: 'A' }, 400);
    store.create('B', { id: 'B' }, 400);
    store.update('A', store.get('A')!, 'status', { id: 'A', status: 'approved' }, 100);
    store.create('C', { id: 'C' }, 400);
    // B was the least recently used: let go; A, touched by its update, stays.
    expect([
      store.get('A') !== undefined,
      store.get('B') !== undefined,
      store.get('C') !== undefined,
    ]).toEqual([true, false, true]);
    expect(store.wasLetGo('B')).toBe(true);
    expect(store.evicted).toBe(1);
    expect(store.wasLetGo('NEVER')).toBe(false);
  });
  it('keeps the newest order even when it alone is over budget, and drops the oldest ids when they fill it', () => {
    const store = new SandboxStore(300);
    for (let i = 0; i < 10; i++) store.create(`ORDER-${i}`, {}, 100);
    store.create('BIG', {}, 10_000);
    expect(store.get('BIG')).toBeDefined();
    expect(store.lost).toBeGreaterThan(0);
    expect(store.wasLetGo('ORDER-0')).toBe(false);
  });
  it("finds the orders of an acquirer id, a payment update replacing the creation's", () => {
    const store = new SandboxStore();
    store.create('A', { id: 'A', payments: [{ id: 'P1', acquirer_id: 'TX-1' }] });
    store.create('B', { id: 'B', payments: [{ id: 'P2' }] });
    store.create('C', { id: 'C', payments: [{ id: 'P3', acquirer_id: 'TX-1' }] });
    store.update('B', store.get('B')!, 'payment', { id: 'P2', order_id: 'B', acquirer_id: 'TX-2' });
    store.update('C', store.get('C')!, 'payment', { id: 'P3', order_id: 'C', acquirer_id: 'TX-3' });
    expect(store.withAcquirerId('TX-1')).toEqual(['A']);
    expect(store.withAcquirerId('TX-2')).toEqual(['B']);
    expect(store.withAcquirerId('NONE')).toEqual([]);
  });
});
