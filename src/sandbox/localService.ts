import type { Issue } from '../core/issue.js';
import type { Registry } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';
import { validateRecord } from '../validate/validateRecord.js';
import { decide, type DecisionRules } from './decide.js';
import { nextFault, seededRandom, type Fault, type FaultRates } from './faults.js';
import { parseJsonBody } from './protocolRules.js';
import { keyRefusal, route } from './requestGate.js';
import { SandboxStore } from './sandboxStore.js';
import { answer, type Answer, type Outcome, type Service } from './answer.js';

export { answer, type Answer, type Outcome, type Service } from './answer.js';

export interface LocalServiceOptions {
  /** Only this key is accepted; any key when absent. */
  key?: string;
  seed: number;
  faults: FaultRates;
  slowMs: number;
  retryAfterSeconds: number;
  rules: DecisionRules;
}

/** 400 with `error_message` as field -> messages, as docs/payloads.md describes the service's answer. */
function validationAnswer(issues: readonly Issue[]): Answer | undefined {
  const errors = issues.filter((issue) => issue.severity === 'error');
  if (errors.length === 0) return undefined;
  const byField: Record<string, string[]> = {};
  for (const issue of errors) (byField[issue.path || 'non_field_errors'] ??= []).push(issue.message);
  return answer(400, { error_message: byField, error_code: 2 });
}

/** The sandbox's stateful handling of one valid body. */
function handle(
  resource: Resource,
  body: Record<string, unknown>,
  bytes: number,
  store: SandboxStore,
  rules: DecisionRules,
): Answer {
  const orderId = String(body[resource.orderField]);
  const accepted = answer(resource.accepted.status, { message: resource.accepted.message });
  if (resource.role === 'creation') {
    const entry = store.create(orderId, body, bytes);
    if (body.evaluate !== true) return accepted;
    entry.decision = decide(body, rules);
    return answer(resource.accepted.status, {
      legiti_decision: entry.decision.decision,
      message: entry.decision.reason,
    });
  }
  const entry = store.get(orderId);
  // An order let go past --keep-mb was created: its updates are taken, unchecked and unkept.
  if (!entry)
    return store.wasLetGo(orderId)
      ? accepted
      : answer(404, { error_message: `order ${orderId} was never created in this sandbox` });
  const refused = resource.sandboxCheck?.(entry.order, body);
  if (refused) return answer(refused.status, { error_message: refused.message });
  store.update(orderId, entry, resource.name, body, bytes);
  return accepted;
}

/**
 * The sandbox's stand-in for the service: the five endpoints, the same schemas, the answers of
 * docs/payloads.md, explained evaluations and seeded faults on demand.
 */
export function localService(options: LocalServiceOptions, registry: Registry, store: SandboxStore): Service {
  const random = seededRandom(options.seed);
  return (request, checked) => {
    const answered = (given: Answer, fault: Fault): Outcome => ({
      kind: 'answer',
      answer: given,
      fault,
      ...(fault === 'slow' ? { delayMs: options.slowMs } : {}),
    });
    const reply = (status: number, body: unknown, fault: Fault = 'none', headers?: Record<string, string>) =>
      answered(answer(status, body, headers), fault);
    const routed = route(registry, request.method, request.path);
    if ('refused' in routed) return answered(routed.refused, 'none');
    const { resource } = routed;
    const unauthorized = keyRefusal(request.authorization, options.key);
    if (unauthorized) return answered(unauthorized, 'none');
    const fault = nextFault(random, options.faults);
    if (fault === 'reset') return { kind: 'reset', fault };
    if (fault === 'fail') return reply(503, { error_message: 'sandbox: injected failure' }, fault);
    if (fault === 'throttle')
      return reply(429, { error_message: 'sandbox: too many requests' }, fault, {
        'retry-after': String(options.retryAfterSeconds),
      });
    if (request.body === undefined) return reply(413, { error_message: 'body too large' }, fault);
    // A judged request was parsed and checked once already: the answer comes from that.
    let body: unknown = checked?.body;
    if (!checked) {
      // Not JSON, or nested past any record (checking it would recurse that deep): the service's parse error.
      const parsed = parseJsonBody(request.body);
      if (!parsed.ok) return reply(400, { error_message: 'Invalid JSON', error_code: 1 }, fault);
      body = parsed.value;
    }
    const invalid = validationAnswer(
      checked?.schemaIssues ?? validateRecord(resource, body, { now: request.at }),
    );
    return answered(
      invalid ?? handle(resource, body as Record<string, unknown>, request.body.length, store, options.rules),
      fault,
    );
  };
}
