import { createWriteStream, type WriteStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registry as defaultRegistry, type Registry } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';
import { validateRecord } from '../validate/validateRecord.js';
import { decide, type DecisionRules } from './decide.js';
import { nextFault, seededRandom, type Fault, type FaultRates } from './faults.js';
import { SandboxStore } from './sandboxStore.js';

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
}

const MAX_BODY = 1024 * 1024;

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const answer = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({ status, body, ...(headers ? { headers } : {}) });

/** 400 with `error_message` as field -> messages, as docs/payloads.md describes the service's answer. */
function validationAnswer(resource: Resource, body: unknown): Answer | undefined {
  const errors = validateRecord(resource, body, { now: new Date() }).filter((issue) => issue.severity === 'error');
  if (errors.length === 0) return undefined;
  const byField: Record<string, string[]> = {};
  for (const issue of errors) (byField[issue.path || 'non_field_errors'] ??= []).push(issue.message);
  return answer(400, { error_message: byField, error_code: 2 });
}

/** The sandbox's stateful handling of one valid body. */
function handle(resource: Resource, body: Record<string, unknown>, store: SandboxStore, rules: DecisionRules): Answer {
  const orderId = String(body[resource.orderField]);
  const accepted = answer(resource.accepted.status, { message: resource.accepted.message });
  if (resource.role === 'creation') {
    const entry = store.create(orderId, body);
    if (body.evaluate !== true) return accepted;
    entry.decision = decide(body, rules);
    return answer(resource.accepted.status, { legiti_decision: entry.decision.decision, message: entry.decision.reason });
  }
  const entry = store.get(orderId);
  if (!entry) return answer(404, { error_message: `order ${orderId} was never created in this sandbox` });
  const refused = resource.sandboxCheck?.(entry.order, body);
  if (refused) return answer(refused.status, { error_message: refused.message });
  (entry.updates[resource.name] ??= []).push(body);
  return accepted;
}

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

/**
 * A local, stateful stand-in for the service: the five endpoints, the same schemas, the
 * answers of docs/payloads.md, explained evaluations and seeded faults on demand.
 */
export async function startSandbox(options: SandboxOptions): Promise<{ url: string; close: () => Promise<void> }> {
  const store = new SandboxStore();
  const registry = options.registry ?? defaultRegistry;
  const random = seededRandom(options.seed);
  const log: WriteStream | undefined = options.record ? createWriteStream(options.record, { flags: 'a', mode: 0o600 }) : undefined;

  const respond = (request: IncomingMessage, response: ServerResponse, fault: Fault, reply: Answer, body: unknown) => {
    log?.write(`${JSON.stringify({
      at: new Date().toISOString(), method: request.method, path: request.url, auth: request.headers.authorization ? 'present' : 'missing',
      fault, status: reply.status, body, answer: reply.body,
    })}\n`);
    const send = () => {
      if (response.destroyed) return;
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(JSON.stringify(reply.body));
    };
    if (fault === 'slow') setTimeout(send, options.slowMs).unref();
    else send();
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://sandbox');
    if (request.method === 'GET' && url.pathname.startsWith('/_sandbox/orders/')) {
      const entry = store.get(decodeURIComponent(url.pathname.slice('/_sandbox/orders/'.length)));
      response.writeHead(entry ? 200 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(entry ?? { error_message: 'no such order in this sandbox' }));
      return;
    }
    const resource = registry.byRoute(request.method ?? '', url.pathname);
    const text = await readBody(request);
    if (!resource) return respond(request, response, 'none', answer(404, { error_message: `no endpoint ${request.method} ${url.pathname}` }), text);
    const auth = request.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || auth.length <= 'Bearer '.length) return respond(request, response, 'none', answer(401, { error_message: 'missing API key' }), text);
    if (options.key !== undefined && auth !== `Bearer ${options.key}`) return respond(request, response, 'none', answer(401, { error_message: 'invalid API key' }), text);
    const fault = nextFault(random, options.faults);
    if (fault === 'reset') {
      log?.write(`${JSON.stringify({ at: new Date().toISOString(), method: request.method, path: request.url, fault, status: null })}\n`);
      request.socket.destroy();
      return;
    }
    if (fault === 'fail') return respond(request, response, fault, answer(503, { error_message: 'sandbox: injected failure' }), text);
    if (fault === 'throttle') return respond(request, response, fault, answer(429, { error_message: 'sandbox: too many requests' }, { 'retry-after': String(options.retryAfterSeconds) }), text);
    if (text === undefined) return respond(request, response, fault, answer(413, { error_message: 'body too large' }), undefined);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return respond(request, response, fault, answer(400, { error_message: 'Invalid JSON', error_code: 1 }), text);
    }
    const invalid = validationAnswer(resource, body);
    if (invalid) return respond(request, response, fault, invalid, body);
    return respond(request, response, fault, handle(resource, body as Record<string, unknown>, store, options.rules), body);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => (log ? log.end(() => resolve()) : resolve()));
    }),
  };
}
