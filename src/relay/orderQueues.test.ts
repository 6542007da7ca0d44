import { describe, expect, it } from 'vitest';
import { deferDelay, OrderQueues, type QueuedEvent } from './orderQueues.js';

const ev = (id: number, orderId: string, creation = false): QueuedEvent => ({ id, orderId, creation });
const ids = (events: readonly QueuedEvent[]) => events.map((event) => event.id);

describe('OrderQueues', () => {
  it('takes one event per order, oldest order first, up to the free slots', () => {
    const queues = new OrderQueues();
    queues.addFetched(queues.beginFetch(), [ev(1, 'A', true), ev(2, 'B', true), ev(3, 'A'), ev(4, 'C')]);
    expect(ids(queues.take(2, 0))).toEqual([1, 2]);
    expect(ids(queues.take(5, 0))).toEqual([4]);
    expect(queues.inFlight).toBe(3);
  });

  it("sends an order's creation before its earlier-numbered events, then the rest in outbox order", () => {
    const queues = new OrderQueues();
    queues.addFetched(queues.beginFetch(), [ev(1, 'A'), ev(2, 'A'), ev(3, 'A', true)]);
    const order: number[] = [];
    for (let step = 0; step < 3; step++) {
      const [head] = queues.take(10, 0);
      order.push(head!.id);
      expect(queues.take(10, 0)).toEqual([]); // one in flight per order
      queues.settle(head!);
    }
    expect(order).toEqual([3, 1, 2]);
    expect(queues.size).toBe(0);
  });

  it('keeps an order in id order when a row committed late arrives in a later fetch', () => {
    const queues = new OrderQueues();
    queues.addFetched(queues.beginFetch(), [ev(5, 'A', true), ev(9, 'A')]);
    queues.addFetched(queues.beginFetch(), [ev(5, 'A', true), ev(7, 'A'), ev(9, 'A')]);
    const order: number[] = [];
    for (let head = queues.take(1, 0)[0]; head; head = queues.take(1, 0)[0]) {
      order.push(head.id);
      queues.settle(head);
    }
    expect(order).toEqual([5, 7, 9]);
  });

  it('ignores an event settled after a fetch began when that fetch returns it, but not a later fetch', () => {
    const queues = new OrderQueues();
    queues.addFetched(queues.beginFetch(), [ev(1, 'A', true)]);
    const stale = queues.beginFetch(); // its query ran before the settling was committed
    const [head] = queues.take(1, 0);
    queues.settle(head!);
    expect(queues.addFetched(stale, [ev(1, 'A', true)])).toEqual([]);
    expect(queues.size).toBe(0);
    // Re-queued by `relay retry` and fetched again after: taken again.
    expect(ids(queues.addFetched(queues.beginFetch(), [ev(1, 'A', true)]))).toEqual([1]);
  });

  it('defers an order after a passing failure, its event still first, with growing delays', () => {
    const queues = new OrderQueues();
    queues.addFetched(queues.beginFetch(), [ev(1, 'A', true), ev(2, 'A'), ev(3, 'B', true)]);
    const first = queues.take(10, 1000);
    expect(ids(first)).toEqual([1, 3]);
    expect(queues.defer(first[0]!, 1000)).toBe(1000);
    expect(ids(queues.take(10, 1500))).toEqual([]);
    const again = queues.take(10, 2000);
    expect(ids(again)).toEqual([1]);
    expect(queues.defer(again[0]!, 2000)).toBe(2000);
    expect(ids(queues.take(10, 4000))).toEqual([1]);
    expect(deferDelay(20)).toBe(30_000);
  });

  it('skips orders the caller excludes, and drops only orders not in flight', () => {
    const queues = new OrderQueues();
    queues.addFetched(queues.beginFetch(), [ev(1, 'A'), ev(2, 'B'), ev(3, 'B')]);
    expect(ids(queues.take(10, 0, (order) => order === 'A'))).toEqual([2]);
    expect(queues.busy((order) => order === 'B')).toBe(true);
    expect(queues.drop(() => true)).toBe(1);
    expect(queues.has(1)).toBe(false);
    expect(queues.oldest()).toBe(2);
  });

  it('refuses to settle an event that is not in flight (a bug, never a silent loss)', () => {
    const queues = new OrderQueues();
    queues.add(ev(1, 'A'));
    expect(() => queues.settle(ev(1, 'A'))).toThrow(/not in flight/);
  });

  it('counts the sizes of the events it holds, and says which one is in flight', () => {
    const queues = new OrderQueues();
    const [a, b, c] = [
      { ...ev(1, 'A', true), size: 100 },
      { ...ev(2, 'A'), size: 20 },
      { ...ev(3, 'B'), size: 5 },
    ];
    queues.addFetched(queues.beginFetch(), [a, b, c]);
    expect(queues.bytes).toBe(125);
    const taken = queues.take(10, 0);
    expect(queues.isInFlight(a)).toBe(true);
    expect(queues.isInFlight(b)).toBe(false);
    queues.settle(a);
    expect(queues.bytes).toBe(25);
    queues.defer(taken[1]!, 0); // c waits: no longer in flight, still held
    expect(queues.isInFlight(c)).toBe(false);
    expect(queues.drop(() => true)).toBe(2);
    expect(queues.bytes).toBe(0);
  });
});
