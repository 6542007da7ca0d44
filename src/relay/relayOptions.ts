import type { FlowRule } from '../flow/rules/index.js';
import type { Registry } from '../resources/registry.js';
import type { Clock } from '../send/clock.js';
import type { HttpClient } from '../send/httpClient.js';
import type { SetupFailure } from '../send/setupFailure.js';
import type { RunState } from '../state/runState.js';
import type { OutboxSource } from './outboxSource.js';
import type { RelayLog } from './relayLog.js';
import type { RelayMetrics } from './relayMetrics.js';

/** What a relay reads, checks against, sends to, and how (collect relay's flags, resolved by startRelay.ts). */
export interface RelayOptions {
  source: OutboxSource;
  /** The replicas' sharing of the outbox (pgOutbox.ts), when there can be several. */
  sharing?: { rebalance(drain: () => Promise<void>): Promise<boolean>; readonly buckets: number };
  state: RunState;
  client: HttpClient;
  registry: Registry;
  rules: readonly FlowRule[];
  concurrency: number;
  rate?: number;
  retries: number;
  timeoutMs: number;
  clock: Clock;
  random: () => number;
  /** How often the outbox is read without a NOTIFY, and the replicas' heartbeat (ms). */
  pollMs: number;
  log: RelayLog;
  metrics?: RelayMetrics;
  /** Aborted by SIGTERM/SIGINT: what is in flight finishes, nothing new starts. */
  stop: AbortSignal;
  /** Aborted by a second SIGTERM/SIGINT: the relay stops waiting for what is in flight (it stays pending). */
  abandon?: AbortSignal;
}

/** The endpoint label of the metrics: one of the service's endpoints, or `other` (an outbox's text is anyone's). */
export const metricEndpoint = (endpoint: string | undefined, registry: Registry): string =>
  endpoint !== undefined && registry.get(endpoint) ? endpoint : 'other';

/** How the relay ended. */
export interface RelayEnd {
  /** Events dead-lettered or held (standard input's exit code). */
  dead: number;
  sent: number;
  halted?: SetupFailure;
  refused?: true;
  /** The state or the outbox failed: the relay stopped (a restart goes on). */
  failure?: unknown;
  /**
   * Events in flight the relay stopped waiting for (a second signal, the deadline): pending, sent again at
   * the next start.
   */
  unsettled?: number;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (signal.aborted) done();
    else signal.addEventListener('abort', done);
  });
