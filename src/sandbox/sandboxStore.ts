/** What the sandbox holds about one order, as GET /_sandbox/orders/ID shows it. */
export interface SandboxOrder {
  order: Record<string, unknown>;
  decision?: { decision: string; reason: string };
  /** The updates it received, by endpoint name (`status`, `fraud`, ...), in arrival order. */
  updates: Record<string, unknown[]>;
}

/** Estimated bytes an order let go still costs (its id in `forgotten`). */
const idBytes = (id: string) => 64 + 2 * id.length;

/**
 * The sandbox's memory of the orders it received, within `keepBytes` (counted as the JSON text
 * of each order and update, about half of what V8 holds for it): past them, the least recently
 * used orders are let go, their ids kept so their updates are still taken; past them too, the
 * oldest ids go and such an order is unknown again.
 */
export class SandboxStore {
  private readonly orders = new Map<string, SandboxOrder>();
  private readonly cost = new Map<string, number>();
  /** Ids of orders let go, oldest first. */
  private readonly forgotten = new Set<string>();
  private held = 0;
  /** How many orders were let go, and how many of those were dropped from `forgotten` too. */
  evicted = 0;
  lost = 0;

  constructor(private readonly keepBytes = Number.POSITIVE_INFINITY) {}

  create(id: string, order: Record<string, unknown>, bytes = 0): SandboxOrder {
    const existing = this.orders.get(id);
    const entry = existing ? { ...existing, order } : { order, updates: {} };
    this.touch(id, entry);
    if (this.forgotten.delete(id)) this.held -= idBytes(id);
    this.charge(id, bytes);
    return entry;
  }

  /** An update taken for an order it holds. */
  update(id: string, entry: SandboxOrder, name: string, body: unknown, bytes = 0): void {
    (entry.updates[name] ??= []).push(body);
    this.touch(id, entry);
    this.charge(id, bytes);
  }

  get(id: string): SandboxOrder | undefined {
    return this.orders.get(id);
  }

  /**
   * The held orders whose payments carry this acquirer id (a payment update's over the creation's), for
   * rehearsing chargebacks.
   */
  withAcquirerId(acquirerId: string): string[] {
    const found: string[] = [];
    for (const [id, entry] of this.orders) {
      const ids = new Map<unknown, unknown>();
      const payments = Array.isArray(entry.order.payments) ? entry.order.payments : [];
      for (const payment of [...payments, ...(entry.updates.payment ?? [])])
        if (payment !== null && typeof payment === 'object') {
          const { id: paymentId, acquirer_id: given } = payment as Record<string, unknown>;
          if (given !== undefined) ids.set(paymentId, given);
        }
      if ([...ids.values()].includes(acquirerId)) found.push(id);
    }
    return found;
  }

  /** Whether the order was received but let go past keepBytes. */
  wasLetGo(id: string): boolean {
    return this.forgotten.has(id);
  }

  private touch(id: string, entry: SandboxOrder): void {
    this.orders.delete(id);
    this.orders.set(id, entry);
  }

  private charge(id: string, bytes: number): void {
    this.cost.set(id, (this.cost.get(id) ?? 0) + bytes);
    this.held += bytes;
    while (this.held > this.keepBytes) {
      const oldest = this.orders.keys().next();
      if (!oldest.done && oldest.value !== id) {
        this.held -= (this.cost.get(oldest.value) ?? 0) - idBytes(oldest.value);
        this.orders.delete(oldest.value);
        this.cost.delete(oldest.value);
        this.forgotten.add(oldest.value);
        this.evicted++;
        continue;
      }
      const gone = this.forgotten.values().next();
      if (gone.done) return;
      this.forgotten.delete(gone.value);
      this.held -= idBytes(gone.value);
      this.lost++;
    }
  }
}
