import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read when scraped: the outbox's backlog, the relay's own queue. */
export interface RelayGauges {
  backlog(): Promise<{ pending: number; oldestSeconds: number }>;
  inFlight(): number;
  buckets(): number;
}

/** The relay's Prometheus metrics (prom-client), on a registry of its own. */
export class RelayMetrics {
  readonly registry = new Registry();
  readonly events: Counter<'endpoint' | 'outcome'>;
  readonly retries: Counter;
  readonly answerSeconds: Histogram<'endpoint'>;
  readonly acceptedAfterInsertSeconds: Histogram;

  constructor(gauges: RelayGauges) {
    const registers = [this.registry];
    let backlog: Promise<{ pending: number; oldestSeconds: number }> | undefined;
    // One query per scrape feeds both gauges.
    const read = () =>
      (backlog ??= gauges.backlog().finally(() => setTimeout(() => (backlog = undefined), 0)));
    new Gauge({
      name: 'collect_relay_outbox_lag_seconds',
      help: 'Age of the oldest pending outbox event (0 when none is pending)',
      registers,
      async collect() {
        this.set((await read()).oldestSeconds);
      },
    });
    new Gauge({
      name: 'collect_relay_pending_events',
      help: 'Outbox events not yet settled (sent, dead-lettered or held)',
      registers,
      async collect() {
        this.set((await read()).pending);
      },
    });
    new Gauge({
      name: 'collect_relay_in_flight',
      help: 'Events being sent now',
      registers,
      collect() {
        this.set(gauges.inFlight());
      },
    });
    new Gauge({
      name: 'collect_relay_buckets',
      help: 'Order buckets this replica serves (of 32)',
      registers,
      collect() {
        this.set(gauges.buckets());
      },
    });
    this.events = new Counter({
      name: 'collect_relay_events_total',
      help: 'Events settled, by endpoint and outcome (sent, rejected, dead, held, repeat)',
      labelNames: ['endpoint', 'outcome'],
      registers,
    });
    this.retries = new Counter({
      name: 'collect_relay_retries_total',
      help: 'Requests sent again after a passing failure',
      registers,
    });
    this.answerSeconds = new Histogram({
      name: 'collect_relay_answer_seconds',
      help: "Time from sending an event to the service's final answer, retries included",
      labelNames: ['endpoint'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.acceptedAfterInsertSeconds = new Histogram({
      name: 'collect_relay_insert_to_accepted_seconds',
      help: 'Time from the outbox insert to the service accepting the event',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
  }
}

/** Liveness and readiness, as the probes see them. */
export interface Health {
  live(): boolean;
  ready(): boolean;
}

/** Serves /metrics, /healthz and /readyz on `port` (0: any free one); resolves with the server once listening. */
export async function serveMetrics(
  metrics: RelayMetrics,
  health: Health,
  port: number,
  host = '0.0.0.0',
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const plain = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    if (req.method !== 'GET') return plain(405, 'method not allowed\n');
    if (path === '/healthz') return health.live() ? plain(200, 'ok\n') : plain(503, 'stopped\n');
    if (path === '/readyz') return health.ready() ? plain(200, 'ready\n') : plain(503, 'not ready\n');
    if (path !== '/metrics') return plain(404, 'not found: /metrics, /healthz, /readyz\n');
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(text);
      },
      (cause: Error) => plain(500, `metrics unavailable: ${cause.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

export const portOf = (server: Server): number => (server.address() as AddressInfo).port;
