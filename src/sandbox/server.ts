import { createWriteStream, type WriteStream } from 'node:fs';
import { terminalText } from '../core/terminalText.js';
import { MAX_DEPTH, nestsDeeperThan } from '../core/depth.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatJson } from '../report/formatJson.js';
import { parseBody, readDecision } from '../send/responseBody.js';
import { coverageOf } from '../report/fieldCoverage.js';
import { InsightsBuilder, type Insights } from '../report/insights.js';
import { isRecord } from '../schema/checks.js';
import { ReportBuilder, type Report } from '../report/report.js';
import { registry as defaultRegistry, type Registry } from '../resources/registry.js';
import type { DecisionRules } from './decide.js';
import type { FaultRates } from './faults.js';
import { SessionJudge } from './judge.js';
import { localService, type Answer, type Outcome, type Service } from './localService.js';
import type { ReceivedRequest } from './protocolRules.js';
import { callerRefusal, ownHosts } from './requestGate.js';
import { SandboxStore } from './sandboxStore.js';
import { upstreamService, type UpstreamOptions } from './upstream.js';

export interface SandboxOptions {
  host: string;
  port: number;
  /** Only this key is accepted; any key when absent. */
  key?: string;
  /** Every request, as NDJSON (the key itself is never written). */
  record?: string;
  seed: number;
  faults: FaultRates;
  slowMs: number;
  retryAfterSeconds: number;
  rules: DecisionRules;
  /** The endpoints it serves (the service's, unless a test brings its own). */
  registry?: Registry;
  /** Judge every request (schemas, flow rules, protocol rules) into a report; --strict counts warnings. */
  judge?: { strict: boolean };
  /** Forward the five endpoints to the real service instead of answering them here. */
  upstream?: UpstreamOptions;
  /** Host names it answers to besides its own address (a docker service name, with host 0.0.0.0). */
  allowHosts?: readonly string[];
  /** Bytes of orders and findings it keeps (--keep-mb); past them it lets the least recently used go, and counts. */
  keepBytes?: number;
  /**
   * Told of an error while handling one request (answered 500) or writing the record log: the sandbox goes on
   * serving.
   */
  onError?: (cause: unknown, doing: string) => void;
}

export interface Sandbox {
  url: string;
  /** The session's report (final once closed); undefined when the sandbox does not judge. */
  report: () => Report | undefined;
  /**
   * Field and flow coverage, answers per minute and faults of the session so far: the HTML report's;
   * undefined when it does not judge.
   */
  insights: () => Insights | undefined;
  /** How many orders its store let go past keepBytes. */
  lettingGo: () => number;
  /**
   * Ends the judging at once (the rules that wait for the session's end) and returns the final report: for a
   * process that must exit now.
   */
  finalReport: () => Report | undefined;
  close: () => Promise<void>;
}

const MAX_BODY = 1024 * 1024;
/** --keep-mb's default: 64 MiB of orders and findings (the process holds about twice that: docs/sandbox.md). */
export const DEFAULT_KEEP_BYTES = 64 * 1024 * 1024;

/** The body as text; undefined when too large; null when the client went away before sending it all. */
function readBody(request: IncomingMessage): Promise<string | undefined | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(null));
  });
}

function writeAnswer(response: ServerResponse, reply: Answer): void {
  if (response.destroyed) return;
  response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  response.end(reply.raw ?? JSON.stringify(reply.body));
}

/**
 * A body as the record log keeps it: as JSON, unless it is not JSON or nests past any record (writing that
 * would recurse as deep).
 */
function loggedJson(value: unknown, text: string | undefined): unknown {
  return value === undefined || nestsDeeperThan(value, MAX_DEPTH) ? text : value;
}

function received(request: IncomingMessage, path: string, body: string | undefined): ReceivedRequest {
  return {
    method: request.method ?? '',
    path,
    authorization: request.headers.authorization,
    contentType: request.headers['content-type'],
    body,
    at: new Date(),
  };
}

/**
 * A local, stateful stand-in for the service (or a judging proxy to the real one): with a judge,
 * every request is checked as a file run checks records, and the report is served live.
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const registry = options.registry ?? defaultRegistry;
  // The store and the judge share the budget when both keep something.
  const keep = options.keepBytes ?? DEFAULT_KEEP_BYTES;
  const shares = options.judge && !options.upstream ? 2 : 1;
  const store = new SandboxStore(keep / shares);
  const upstream = options.upstream ? upstreamService(options.upstream, registry, options.key) : undefined;
  const redact = options.upstream?.redact ?? ((text: string) => text);
  const service: Service = upstream?.service ?? localService(options, registry, store);
  // Findings get at most half the judge's share, so the flow rules always keep room for timelines.
  const judge = options.judge
    ? new SessionJudge(
        new ReportBuilder({ strict: options.judge.strict, keepBytes: keep / shares / 2 }),
        registry,
        undefined,
        keep / shares / 2,
      )
    : undefined;
  const insights = judge ? new InsightsBuilder(() => Date.now()) : undefined;
  let failures = 0;
  /** The report, with notes on the orders let go and on the requests collect failed to handle (they went unjudged). */
  const reported = (built: Report | undefined) => {
    if (built && store.evicted > 0) {
      built.notes.push({
        code: 'orders-not-held',
        count: store.evicted,
        message:
          'orders the sandbox let go past --keep-mb, least recently used first: their updates are ' +
          'still accepted (without the payment check), GET /_sandbox/orders/ID answers 410',
      });
    }
    if (built && failures > 0)
      built.notes.push({
        code: 'internal-error',
        message: 'requests collect failed to handle (answered 500, not judged): see its standard error',
        count: failures,
      });
    return built;
  };
  const log: WriteStream | undefined = options.record
    ? createWriteStream(options.record, { flags: 'a', mode: 0o600 })
    : undefined;
  // A log that can no longer be written (a full disk) is said, and never ends the session.
  log?.on('error', (cause) => options.onError?.(cause, `writing ${options.record}`));

  const record = (request: ReceivedRequest, outcome: Outcome) =>
    log?.write(
      `${redact(
        JSON.stringify({
          at: request.at.toISOString(),
          method: request.method,
          path: request.path,
          auth: request.authorization ? 'present' : 'missing',
          fault: outcome.fault,
          status: outcome.kind === 'answer' ? outcome.answer.status : null,
          body: request.body === undefined ? undefined : loggedJson(parseBody(request.body), request.body),
          ...(outcome.kind === 'answer'
            ? { answer: loggedJson(outcome.answer.body, outcome.answer.raw) }
            : {}),
        }),
      )}\n`,
    );

  const sandboxRoute = (path: string, response: ServerResponse, query = new URLSearchParams()) => {
    const reply = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (path === '/_sandbox/report') {
      return judge
        ? reply(200, redact(formatJson(reported(judge.report())!)))
        : reply(
            404,
            JSON.stringify({ error_message: 'this sandbox does not judge: start it with --report FILE' }),
          );
    }
    if (upstream)
      return reply(
        404,
        JSON.stringify({ error_message: 'orders are held by the upstream service, not this sandbox' }),
      );
    const acquirerId = query.get('acquirer_id');
    if (path === '/_sandbox/orders')
      return acquirerId === null
        ? reply(400, JSON.stringify({ error_message: 'give ?acquirer_id=TX, or GET /_sandbox/orders/ID' }))
        : reply(200, JSON.stringify({ acquirer_id: acquirerId, orders: store.withAcquirerId(acquirerId) }));
    let id: string;
    try {
      id = decodeURIComponent(path.slice('/_sandbox/orders/'.length));
    } catch {
      return reply(
        400,
        JSON.stringify({ error_message: 'the order id in the path is not valid percent-encoded UTF-8' }),
      );
    }
    const entry = store.get(id);
    if (!entry && store.wasLetGo(id))
      return reply(
        410,
        JSON.stringify({
          error_message: 'the sandbox let this order go past --keep-mb (least recently used first)',
        }),
      );
    return reply(
      entry ? 200 : 404,
      JSON.stringify(entry ?? { error_message: 'no such order in this sandbox' }),
    );
  };

  let hosts = new Set<string>();
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const refused = callerRefusal(request.headers, hosts);
    if (refused) {
      judge?.refusedCaller();
      return writeAnswer(response, refused);
    }
    const url = new URL(request.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    if (
      request.method === 'GET' &&
      (path === '/_sandbox/report' || path === '/_sandbox/orders' || path.startsWith('/_sandbox/orders/'))
    )
      return sandboxRoute(path, response, url.searchParams);
    const body = await readBody(request);
    if (body === null) return;
    // The target as sent, not `path`: a decoded or normalised path could name an endpoint the caller's bytes did not.
    const call = received(request, request.url ?? '', body);
    const judgement = judge?.receive(call);
    if (judgement?.resource) {
      const sent = judgement.checked?.body;
      insights?.covered(
        judgement.resource.name,
        isRecord(sent) ? coverageOf(judgement.resource.name, sent) : 0,
      );
    }
    const outcome = await service(call, judgement?.checked);
    record(call, outcome);
    if (outcome.kind === 'reset') {
      if (judgement) judge!.answered(judgement, null, undefined);
      insights?.answered(null);
      request.socket.destroy();
      return;
    }
    const { answer } = outcome;
    if (judgement) judge!.answered(judgement, answer.status, answer.body, answer.raw);
    const decision =
      judgement?.resource?.role === 'creation' && answer.status < 300 ? readDecision(answer.body) : undefined;
    insights?.answered(answer.status, decision);
    if (outcome.delayMs !== undefined)
      setTimeout(() => writeAnswer(response, answer), outcome.delayMs).unref();
    else writeAnswer(response, answer);
  };

  // Whatever one request does, the sandbox answers it and goes on serving the others.
  const server = createServer((request, response) => {
    serve(request, response).catch((cause: unknown) => {
      failures++;
      options.onError?.(
        cause,
        `handling ${request.method} ${terminalText(request.url ?? '')} (answered 500)`,
      );
      if (!response.headersSent && !response.destroyed)
        writeAnswer(response, {
          status: 500,
          body: { error_message: 'sandbox: internal error of collect while handling this request' },
        });
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const address = server.address() as AddressInfo;
  hosts = ownHosts(address, options.allowHosts);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    report: () => reported(judge?.report()),
    insights: () => {
      if (!insights || !judge) return undefined;
      const flows = new InsightsBuilder(() => Date.now());
      for (const flow of judge.orderFlows()) flows.order(flow);
      const { flow } = flows.build();
      return { ...insights.build(), ...(flow ? { flow } : {}) };
    },
    lettingGo: () => store.evicted,
    finalReport: () => {
      judge?.finish();
      return reported(judge?.report());
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          judge?.finish();
          const done = () =>
            upstream
              ? upstream.close().then(
                  () => resolve(),
                  () => resolve(),
                )
              : resolve();
          if (log) log.end(done);
          else done();
        });
      }),
  };
}
