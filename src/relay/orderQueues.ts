/** What the scheduler needs of an outbox event: its position, its order, whether it creates the order. */
export interface QueuedEvent {
  /** Outbox order (the table's id, a stdin line number). */
  id: number;
  /** The order it belongs to; events of one order go one at a time. */
  orderId: string;
  /** An order creation: it goes before the order's other events, whatever their ids. */
  creation: boolean;
  /** What it holds in memory (its body's length), counted in `bytes`. */
  size?: number;
}

interface OrderQueue<E> {
  events: E[];
  busy: boolean;
  /** No event of the order is taken before this time (ms): it failed for a passing reason. */
  notBefore: number;
  failures: number;
}

/** The wait before an order whose event failed for a passing reason is tried again: 1 s doubling to 30 s. */
export const deferDelay = (failures: number): number => Math.min(30_000, 1000 * 2 ** (failures - 1));

/**
 * The relay's schedule, pure: pending events grouped by order, at most one in flight per order,
 * an order's creation first and then its events in outbox order; different orders are taken
 * oldest first. Fetches overlap with settles: an event settled after a fetch began may still come
 * back in that fetch's rows, so it is ignored there (fetch numbers, one fetch at a time).
 */
export class OrderQueues<E extends QueuedEvent> {
  private readonly orders = new Map<string, OrderQueue<E>>();
  private readonly known = new Set<number>();
  /** Settled event ids -> the number of the last fetch begun before their settling was committed. */
  private readonly settled = new Map<number, number>();
  private fetches = 0;
  private busyCount = 0;
  private sizes = 0;

  /** Events queued, in flight included. */
  get size(): number {
    return this.known.size;
  }

  get inFlight(): number {
    return this.busyCount;
  }

  /** The sizes of the events queued, in flight included: what a next read may add is bounded by it. */
  get bytes(): number {
    return this.sizes;
  }

  /** Whether `event` is in flight (taken, neither settled nor deferred since). */
  isInFlight(event: E): boolean {
    const queue = this.orders.get(event.orderId);
    return queue !== undefined && queue.busy && queue.events[0] === event;
  }

  /** The ids of the events queued (in flight included). */
  get ids(): ReadonlySet<number> {
    return this.known;
  }

  /** The event is queued (or in flight). */
  has(id: number): boolean {
    return this.known.has(id);
  }

  /** Numbers a fetch about to begin; pass it to `addFetched` with its rows. */
  beginFetch(): number {
    return ++this.fetches;
  }

  /** Adds the rows of fetch `fetch`, skipping those queued already or settled since it began; returns those added. */
  addFetched(fetch: number, events: readonly E[]): E[] {
    const added: E[] = [];
    for (const event of events) {
      const settledAt = this.settled.get(event.id);
      if (this.known.has(event.id) || (settledAt !== undefined && settledAt >= fetch)) continue;
      this.add(event);
      added.push(event);
    }
    // A fetch that began after a settling cannot return it: those entries are done with.
    for (const [id, at] of this.settled) if (at < fetch) this.settled.delete(id);
    return added;
  }

  /** Queues one event (a source with no fetches, such as standard input, adds them as read). */
  add(event: E): void {
    this.known.add(event.id);
    this.sizes += event.size ?? 0;
    let queue = this.orders.get(event.orderId);
    if (!queue)
      this.orders.set(event.orderId, (queue = { events: [], busy: false, notBefore: 0, failures: 0 }));
    // Rows committed out of id order arrive late: each order's queue stays in id order.
    let at = queue.events.length;
    while (at > 0 && queue.events[at - 1]!.id > event.id) at--;
    queue.events.splice(at, 0, event);
  }

  /** Up to `free` events to start now: the head of each order that is neither in flight nor deferred. */
  take(free: number, now: number, skip?: (orderId: string) => boolean): E[] {
    const taken: E[] = [];
    for (const [orderId, queue] of this.orders) {
      if (taken.length >= free) break;
      if (queue.busy || queue.notBefore > now || skip?.(orderId)) continue;
      const creation = queue.events.findIndex((event) => event.creation);
      const head = creation > 0 ? queue.events.splice(creation, 1)[0]! : queue.events[0]!;
      if (creation > 0) queue.events.unshift(head);
      queue.busy = true;
      this.busyCount++;
      taken.push(head);
    }
    return taken;
  }

  /** The event is settled for good (sent, dead-lettered, held): the order's next event may go. */
  settle(event: E): void {
    const queue = this.release(event);
    queue.events.shift();
    this.sizes -= event.size ?? 0;
    queue.failures = 0;
    queue.notBefore = 0;
    this.known.delete(event.id);
    this.settled.set(event.id, this.fetches);
    if (queue.events.length === 0) this.orders.delete(event.orderId);
  }

  /** The event failed for a passing reason: it stays first, and its order waits before it is tried again. */
  defer(event: E, now: number): number {
    const queue = this.release(event);
    queue.failures++;
    const delay = deferDelay(queue.failures);
    queue.notBefore = now + delay;
    return delay;
  }

  /** Forgets the queued events of orders no longer served here (none of them in flight); returns how many. */
  drop(which: (orderId: string) => boolean): number {
    let dropped = 0;
    for (const [orderId, queue] of this.orders) {
      if (queue.busy || !which(orderId)) continue;
      for (const event of queue.events) {
        this.known.delete(event.id);
        this.sizes -= event.size ?? 0;
      }
      dropped += queue.events.length;
      this.orders.delete(orderId);
    }
    return dropped;
  }

  /** Whether an event of the orders `which` selects is in flight. */
  busy(which: (orderId: string) => boolean): boolean {
    for (const [orderId, queue] of this.orders) if (queue.busy && which(orderId)) return true;
    return false;
  }

  /** The lowest id queued (the oldest pending event), or undefined when none is. */
  oldest(): number | undefined {
    let lowest: number | undefined;
    for (const queue of this.orders.values())
      for (const event of queue.events) if (lowest === undefined || event.id < lowest) lowest = event.id;
    return lowest;
  }

  private release(event: E): OrderQueue<E> {
    const queue = this.orders.get(event.orderId);
    if (!queue?.busy || queue.events[0] !== event)
      throw new Error(`event ${event.id} of order ${event.orderId} is not in flight`);
    queue.busy = false;
    this.busyCount--;
    return queue;
  }
}
