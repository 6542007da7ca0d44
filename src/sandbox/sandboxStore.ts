/** What the sandbox holds about one order, as GET /_sandbox/orders/ID shows it. */
export interface SandboxOrder {
  order: Record<string, unknown>;
  decision?: { decision: string; reason: string };
  /** The updates it received, by endpoint name (`status`, `fraud`, ...), in arrival order. */
  updates: Record<string, unknown[]>;
}

/** The sandbox's memory of the orders it received. */
export class SandboxStore {
  private readonly orders = new Map<string, SandboxOrder>();

  create(id: string, order: Record<string, unknown>): SandboxOrder {
    const existing = this.orders.get(id);
    const entry = existing ? { ...existing, order } : { order, updates: {} };
    this.orders.set(id, entry);
    return entry;
  }

  get(id: string): SandboxOrder | undefined {
    return this.orders.get(id);
  }
}
