import { createWriteStream, type WriteStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatJson } from '../report/formatJson.js';
import { parseBody } from '../send/responseBody.js';
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
}

export interface Sandbox {
  url: string;
  /** The session's report (final once closed); undefined when the sandbox does not judge. */
  report: () => Report | undefined;
  /** How many orders its store let go past keepBytes. */
  lettingGo: () => number;
  close: () => Promise<void>;
}

const MAX_BODY = 1024 * 1024;
/** --keep-mb's default: 64 MiB of orders and findings (the process holds about twice that, measured with bench/sandbox-memory.js). */
export const DEFAULT_KEEP_BYTES = 64 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function writeAnswer(response: ServerResponse, reply: Answer): void {
  if (response.destroyed) return;
  response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  response.end(reply.raw ?? JSON.stringify(reply.body));
}

function received(request: IncomingMessage, path: string, body: string | undefined): ReceivedRequest {
  return { method: request.method ?? '', path, authorization: request.headers.authorization, contentType: request.headers['content-type'], body, at: new Date() };
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
  const judge = options.judge ? new SessionJudge(new ReportBuilder({ strict: options.judge.strict, keepBytes: keep / shares / 2 }), registry, undefined, keep / shares / 2) : undefined;
  const report = (): Report | undefined => {
    const built = judge?.report();
    if (built && store.evicted > 0) {
      built.notes.push({ code: 'orders-not-held', count: store.evicted, message: 'orders the sandbox let go past --keep-mb, least recently used first: their updates are still accepted (without the payment check), GET /_sandbox/orders/ID answers 410' });
    }
    return built;
  };
  const log: WriteStream | undefined = options.record ? createWriteStream(options.record, { flags: 'a', mode: 0o600 }) : undefined;

  const record = (request: ReceivedRequest, outcome: Outcome) => log?.write(`${redact(JSON.stringify({
    at: request.at.toISOString(), method: request.method, path: request.path, auth: request.authorization ? 'present' : 'missing', fault: outcome.fault,
    status: outcome.kind === 'answer' ? outcome.answer.status : null, body: request.body === undefined ? undefined : (parseBody(request.body) ?? request.body), ...(outcome.kind === 'answer' ? { answer: outcome.answer.body } : {}),
  }))}\n`);

  const sandboxRoute = (path: string, response: ServerResponse) => {
    const reply = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (path === '/_sandbox/report') {
      return judge ? reply(200, redact(formatJson(report()!))) : reply(404, JSON.stringify({ error_message: 'this sandbox does not judge: start it with --report FILE' }));
    }
    if (upstream) return reply(404, JSON.stringify({ error_message: 'orders are held by the upstream service, not this sandbox' }));
    const id = decodeURIComponent(path.slice('/_sandbox/orders/'.length));
    const entry = store.get(id);
    if (!entry && store.wasLetGo(id)) return reply(410, JSON.stringify({ error_message: 'the sandbox let this order go past --keep-mb (least recently used first)' }));
    return reply(entry ? 200 : 404, JSON.stringify(entry ?? { error_message: 'no such order in this sandbox' }));
  };

  let hosts = new Set<string>();
  const server = createServer(async (request, response) => {
    const refused = callerRefusal(request.headers, hosts);
    if (refused) {
      judge?.refusedCaller();
      return writeAnswer(response, refused);
    }
    const path = new URL(request.url ?? '/', 'http://sandbox').pathname;
    if (request.method === 'GET' && (path === '/_sandbox/report' || path.startsWith('/_sandbox/orders/'))) return sandboxRoute(path, response);
    // The target as sent, not `path`: a decoded or normalised path could name an endpoint the caller's bytes did not.
    const call = received(request, request.url ?? '', await readBody(request));
    const judgement = judge?.receive(call);
    const outcome = await service(call, judgement?.checked);
    record(call, outcome);
    if (outcome.kind === 'reset') {
      if (judgement) judge!.answered(judgement, null, undefined);
      request.socket.destroy();
      return;
    }
    const { answer } = outcome;
    if (judgement) judge!.answered(judgement, answer.status, answer.body, answer.raw);
    if (outcome.delayMs !== undefined) setTimeout(() => writeAnswer(response, answer), outcome.delayMs).unref();
    else writeAnswer(response, answer);
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
    report,
    lettingGo: () => store.evicted,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        judge?.finish();
        const done = () => (upstream ? upstream.close().then(() => resolve(), () => resolve()) : resolve());
        if (log) log.end(done);
        else done();
      });
    }),
  };
}
