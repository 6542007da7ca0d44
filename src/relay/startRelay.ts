import type { Readable, Writable } from 'node:stream';
import pg from 'pg';
import { exitCodes, type ExitCode } from '../core/exitCodes.js';
import { maskUrlCredentials } from '../core/urlCredentials.js';
import { flowRules } from '../flow/rules/index.js';
import { registry } from '../resources/registry.js';
import { realClock } from '../send/clock.js';
import { createHttpClient } from '../send/httpClient.js';
import { describeHalt } from '../send/setupFailure.js';
import { DisposalStack } from '../run/disposalStack.js';
import { openState } from '../state/openState.js';
import { isCollectError } from '../core/errors.js';
import { operationalError } from '../core/operationalError.js';
import { PgOutbox } from './pgOutbox.js';
import { checkOutbox, initOutbox, outboxTable, requeue } from './pgOutboxSchema.js';
import { Relay } from './relay.js';
import { RelayLog, type LogFormat } from './relayLog.js';
import { RelayMetrics, serveMetrics } from './relayMetrics.js';
import { StdinSource } from './stdinSource.js';
import type { OutboxSource } from './outboxSource.js';

/** /healthz fails when the relay's loop has not gone round for this long. */
const STALLED_MS = 60_000;

export interface RelayRequest {
  /** A postgres:// URL, or - for NDJSON on standard input. */
  from: string;
  table: string;
  baseUrl: URL;
  apiKey: string;
  /** The state: a folder or a postgres:// URL. */
  state: string;
  concurrency: number;
  rate?: number;
  retries: number;
  timeoutMs: number;
  pollMs: number;
  metricsPort?: number;
  logFormat: LogFormat;
  /** Events whose body is larger are dead-lettered unread (default: the service's body limit). */
  maxRecordBytes?: number;
}

export interface RelayIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Aborted on SIGTERM / Ctrl-C. */
  stop: AbortSignal;
  /** Aborted on a second SIGTERM / Ctrl-C: stop waiting for what is in flight. */
  abandon?: AbortSignal;
  now: () => Date;
}

/** Opens what the relay needs (state, outbox, HTTP client, metrics), runs it until stopped, and closes all. */
export async function startRelay(request: RelayRequest, io: RelayIo): Promise<ExitCode> {
  const log = new RelayLog(io.stderr, request.logFormat, io.now);
  const where = request.from === '-' ? 'standard input' : maskUrlCredentials(request.from);
  // What the relay holds, released in reverse order of taking on every way out.
  const stack = new DisposalStack();
  const ignoreFailure = () => undefined;
  const state = stack.adopt(
    await openState(request.state, request.baseUrl.toString(), { locking: false }),
    (held) => Promise.resolve(held.close()).catch(ignoreFailure),
  );
  const client = stack.adopt(
    createHttpClient(request.baseUrl, request.apiKey, request.concurrency, request.timeoutMs),
    (held) => held.close().catch(ignoreFailure),
  );
  try {
    let source: OutboxSource;
    let outbox: PgOutbox | undefined;
    if (request.from === '-')
      source = stack.adopt(new StdinSource(io.stdin, io.stdout, request.maxRecordBytes), closeSource);
    else {
      const table = outboxTable(request.table);
      outbox = await PgOutbox.open(request.from, table, registry, where, request.maxRecordBytes).catch(
        (cause: unknown) => {
          throw operationalError(cause, { name: `the outbox ${where}` }) ?? cause;
        },
      );
      stack.adopt(outbox, closeSource);
      outbox.creationEndpoints = registry.all.filter((r) => r.role === 'creation').map((r) => r.name);
      source = outbox;
    }
    const holder: { relay?: Relay } = {};
    const metrics = new RelayMetrics({
      backlog: () => (outbox ? outbox.backlog() : Promise.resolve({ pending: 0, oldestSeconds: 0 })),
      inFlight: () => holder.relay?.inFlight ?? 0,
      buckets: () => outbox?.buckets ?? 0,
    });
    const relay = (holder.relay = new Relay({
      source,
      ...(outbox ? { sharing: outbox } : {}),
      state,
      client,
      registry,
      rules: flowRules,
      concurrency: request.concurrency,
      ...(request.rate === undefined ? {} : { rate: request.rate }),
      retries: request.retries,
      timeoutMs: request.timeoutMs,
      clock: realClock,
      random: Math.random,
      pollMs: request.pollMs,
      log,
      metrics,
      stop: io.stop,
      ...(io.abandon ? { abandon: io.abandon } : {}),
    }));
    if (request.metricsPort !== undefined) {
      const live = relay;
      const server = await serveMetrics(
        metrics,
        {
          // Failed (the outbox or the state), or stalled: the loop has not gone round for a minute (a retry
          // waits 30 s at most).
          live: () => live.working && Date.now() - live.lastLoop < STALLED_MS,
          ready: () => live.ready && live.working && !io.stop.aborted,
        },
        request.metricsPort,
      );
      stack.defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : request.metricsPort;
      log.write({
        state: 'listening',
        port,
        message: `metrics on port ${port}: /metrics, /healthz, /readyz`,
      });
    }
    log.write({ state: 'started', message: `relaying ${where} to ${request.baseUrl.origin}` });
    const end = await relay.run();
    if (end.halted) io.stderr.write(describeHalt(end.halted));
    if (end.refused)
      io.stderr.write(
        'collect relay: the service refused the API key; nothing more was sent\n  fix: check ' +
          'COLLECT_API_KEY or --api-key-file, and --base-url\n',
      );
    if (end.failure !== undefined) throw end.failure;
    const unsettled = end.unsettled
      ? `; ${end.unsettled} in flight left pending (sent again by the next start)`
      : '';
    log.write({
      state: 'stopped',
      message: `${end.sent} sent, ${end.dead} dead-lettered or held${unsettled}`,
    });
    if (end.halted || end.refused) return exitCodes.deliveryFailed;
    if (io.abandon?.aborted) return exitCodes.interrupted;
    // Standard input ends: its dead letters are on standard output, and the exit says there were some.
    return request.from === '-' && end.dead > 0 ? exitCodes.invalid : exitCodes.ok;
  } catch (cause) {
    if (isCollectError(cause)) throw cause;
    log.write({ state: 'failed', message: (cause as Error).message });
    io.stderr.write(
      `collect relay: the outbox or the state failed: ${(cause as Error).message}\n  fix: check ` +
        `the database; a restart goes on where this one stopped (at most --concurrency events are ` +
        `sent again)\n`,
    );
    return exitCodes.usage;
  } finally {
    await stack.dispose();
  }
}

const closeSource = (source: OutboxSource) => source.close();

/**
 * Runs `use` on a connection to the outbox's database; a server down, a refused login or privilege is exit 2
 * naming the outbox.
 */
async function withOutbox<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'collect relay' });
  try {
    await client.connect();
    return await use(client);
  } catch (cause) {
    throw operationalError(cause, { name: `the outbox ${maskUrlCredentials(url)}` }) ?? cause;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `collect relay init`: the outbox table, the relay's columns and the NOTIFY trigger. */
export async function initRelayOutbox(url: string, table: string): Promise<void> {
  await withOutbox(url, (client) => initOutbox(client, outboxTable(table)));
}

/** `collect relay retry`: re-queues dead-lettered events and those held behind them. */
export async function retryDeadLetters(
  url: string,
  table: string,
  ids: readonly number[] | undefined,
): Promise<{ chosen: number; held: number }> {
  return withOutbox(url, async (client) => {
    // A missing table (or column) says to run `relay init`, as `collect relay` does.
    await checkOutbox(client, outboxTable(table), maskUrlCredentials(url));
    return requeue(client, outboxTable(table), ids);
  });
}
