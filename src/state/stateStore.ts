import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { UsageError } from '../core/errors.js';
import type { PriorOrder } from '../flow/timeline.js';
import type { Facts, Resource, StateWrites } from '../resources/resource.js';
import { migrations } from './migrations.js';
import { guardDatabase } from './stateErrors.js';

/** What a run learned about one record, to remember for later runs. */
export interface Remembered {
  facts: Facts;
  resource: Resource;
  hash: string;
  /** validated (a dry run's own namespace), or what the service answered; only the first two change the state's facts. */
  outcome: 'validated' | 'accepted' | 'rejected' | 'failed';
  /** The service's evaluation decision, for an accepted creation that asked for one. */
  decision?: string;
}

/** The namespace of a service base URL; a dry run without a URL keeps its own. */
export function namespaceOf(baseUrl: string | undefined): string {
  if (!baseUrl) return 'dry-run';
  const normal = baseUrl.trim().replace(/\/+$/, '').toLowerCase();
  return `service-${createHash('sha256').update(normal).digest('hex').slice(0, 16)}`;
}

function openDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) {
    db.close();
    throw new UsageError(`the state in ${path} was written by a newer collect (schema ${version})`, 'upgrade collect, or use another --state folder');
  }
  db.transaction(() => {
    migrations.slice(version).forEach((step) => db.exec(step));
    db.pragma(`user_version = ${migrations.length}`);
  })();
  return db;
}

/** The decision the flow rules go by: a reject from either source wins (§1.5 must hold), then the service's own answer to collect. */
function knownDecision(answered: string | null, loaded: string | undefined): string | null {
  if (answered === 'reject' || loaded === 'reject') return 'reject';
  return answered ?? loaded ?? null;
}

/**
 * What earlier runs against one service recorded: orders created (payment and acquirer ids,
 * delivery ids), decisions, statuses, fraud marks and the journal of records seen.
 * `path` null keeps it in memory (`--no-state`).
 */
export class StateStore {
  private readonly db: Database.Database;
  private readonly counts: { orders: number; journal: number; deliveries: number; decisions: number };
  private readonly statements;
  private readonly writes: StateWrites;

  constructor(path: string | null, readonly baseUrl?: string) {
    this.db = path === null ? openDatabase(':memory:') : guardDatabase(path, () => openDatabase(path));
    if (baseUrl) this.db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('base_url', baseUrl);
    const count = (table: string) => (this.db.prepare(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`).get() as { any: number }).any;
    this.counts = { orders: count('orders'), journal: count('journal'), deliveries: count('order_deliveries'), decisions: count('decisions') };
    this.statements = {
      order: this.db.prepare('SELECT hash, evaluate, decision, last_status FROM orders WHERE order_id = ?'),
      payments: this.db.prepare('SELECT payment_id, acquirer_id FROM order_payments WHERE order_id = ?'),
      deliveries: this.db.prepare('SELECT delivery_id FROM order_deliveries WHERE order_id = ?'),
      marks: this.db.prepare('SELECT signal_type FROM fraud_marks WHERE order_id = ?'),
      loaded: this.db.prepare('SELECT decision FROM decisions WHERE order_id = ?'),
      load: this.db.prepare('INSERT INTO decisions (order_id, decision, source, at) VALUES (?, ?, ?, ?) ON CONFLICT (order_id) DO UPDATE SET decision = excluded.decision, source = excluded.source, at = excluded.at'),
      owners: this.db.prepare('SELECT order_id FROM order_deliveries WHERE delivery_id = ?'),
      journaled: this.db.prepare('SELECT outcome FROM journal WHERE hash = ?'),
      addOrder: this.db.prepare('INSERT OR IGNORE INTO orders (order_id, hash, evaluate, last_status) VALUES (?, ?, ?, ?)'),
      addPayment: this.db.prepare('INSERT OR IGNORE INTO order_payments (order_id, payment_id, acquirer_id) VALUES (?, ?, ?)'),
      setAcquirer: this.db.prepare('UPDATE order_payments SET updated_acquirer_id = ? WHERE order_id = ? AND payment_id = ?'),
      addDelivery: this.db.prepare('INSERT OR IGNORE INTO order_deliveries (order_id, delivery_id) VALUES (?, ?)'),
      setStatus: this.db.prepare('UPDATE orders SET last_status = ? WHERE order_id = ?'),
      setDecision: this.db.prepare('UPDATE orders SET decision = ? WHERE order_id = ?'),
      addMark: this.db.prepare('INSERT OR IGNORE INTO fraud_marks (order_id, signal_type) VALUES (?, ?)'),
      journal: this.db.prepare('INSERT OR REPLACE INTO journal (hash, endpoint, order_id, outcome, at) VALUES (?, ?, ?, ?, ?)'),
    };
    const s = this.statements;
    this.writes = {
      createOrder: (o) => s.addOrder.run(o.orderId, o.hash, o.evaluate ? 1 : 0, o.status),
      setDecision: (orderId, decision) => s.setDecision.run(decision, orderId),
      addPayment: (orderId, paymentId, acquirerId) => s.addPayment.run(orderId, paymentId, acquirerId),
      setUpdatedAcquirer: (orderId, paymentId, acquirerId) => s.setAcquirer.run(acquirerId, orderId, paymentId),
      setLastStatus: (orderId, status) => s.setStatus.run(status, orderId),
      addFraudMark: (orderId, signalType) => s.addMark.run(orderId, signalType),
      addDelivery: (orderId, deliveryId) => s.addDelivery.run(orderId, deliveryId),
    };
  }

  /** Opens the store of a namespace in `dir`, creating the folder; null dir: in memory. */
  static open(dir: string | null, baseUrl?: string): StateStore {
    if (dir === null) return new StateStore(null, baseUrl);
    try {
      mkdirSync(dir, { recursive: true });
    } catch (cause) {
      throw new UsageError(`--state ${dir}: cannot create the folder (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, 'choose a writable folder with --state DIR');
    }
    return new StateStore(join(dir, `${namespaceOf(baseUrl)}.sqlite`), baseUrl);
  }

  get hasOrders(): boolean {
    return this.counts.orders === 1;
  }

  priorOrder(orderId: string): PriorOrder | null {
    if (!this.hasOrders && this.counts.decisions === 0) return null;
    const loaded = this.counts.decisions === 0 ? undefined : (this.statements.loaded.get(orderId) as { decision: string } | undefined)?.decision;
    const row = this.statements.order.get(orderId) as { hash: string; evaluate: number; decision: string | null; last_status: string | null } | undefined;
    const fraudTypes = (this.statements.marks.all(orderId) as { signal_type: string }[]).map((m) => m.signal_type);
    if (!row) {
      return fraudTypes.length > 0 || loaded !== undefined
        ? { created: false, hash: '', evaluate: false, decision: loaded ?? null, lastStatus: null, payments: {}, deliveryIds: [], fraudTypes }
        : null;
    }
    const payments: Record<string, string | null> = {};
    for (const p of this.statements.payments.all(orderId) as { payment_id: string; acquirer_id: string | null }[]) payments[p.payment_id] = p.acquirer_id;
    return {
      created: true,
      hash: row.hash,
      evaluate: row.evaluate === 1,
      decision: knownDecision(row.decision, loaded),
      lastStatus: row.last_status,
      payments,
      deliveryIds: (this.statements.deliveries.all(orderId) as { delivery_id: string }[]).map((d) => d.delivery_id),
      fraudTypes,
    };
  }

  /** The orders whose creations claimed a key (a delivery id), in earlier runs. */
  claimants(key: string): string[] {
    if (this.counts.deliveries === 0) return [];
    return (this.statements.owners.all(key) as { order_id: string }[]).map((row) => row.order_id);
  }

  /** What became of the same record (same endpoint and content) in an earlier run, if it was seen. */
  journalOutcome(hash: string): Remembered['outcome'] | undefined {
    if (this.counts.journal === 0) return undefined;
    return (this.statements.journaled.get(hash) as { outcome: Remembered['outcome'] } | undefined)?.outcome;
  }

  /** Records what the service now knows, in one transaction. */
  remember(records: readonly Remembered[], now: Date): void {
    const s = this.statements;
    const at = now.toISOString();
    this.db.transaction(() => {
      for (const { facts, resource, hash, outcome, decision } of records) {
        if (outcome === 'rejected' || outcome === 'failed') {
          s.journal.run(hash, resource.name, facts.orderId, outcome, at);
          continue;
        }
        resource.remember(facts, this.writes, hash, decision);
        // A dry run's creations are recognised by their hash in orders; sent ones are journaled too.
        if (resource.role !== 'creation' || outcome === 'accepted') s.journal.run(hash, resource.name, facts.orderId, outcome, at);
      }
    })();
  }

  /** Evaluation decisions the service made outside collect (`collect decisions`), in one transaction; a later load of an order replaces an earlier one. */
  rememberDecisions(decisions: readonly { orderId: string; decision: string }[], source: string, now: Date): void {
    const at = now.toISOString();
    this.db.transaction(() => {
      for (const { orderId, decision } of decisions) this.statements.load.run(orderId, decision, source, at);
    })();
    if (decisions.length > 0) this.counts.decisions = 1;
  }

  /** One decision made outside collect (tests, and the analyst's single order). */
  rememberDecision(orderId: string, decision: string, now = new Date()): void {
    this.rememberDecisions([{ orderId, decision }], 'by hand', now);
  }

  close(): void {
    this.db.close();
  }
}
