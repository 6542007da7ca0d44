import { checkRecord } from '../check/checkRecord.js';
import type { Issue, RecordLocation } from '../core/issue.js';
import { evaluateTimeline } from '../flow/evaluate.js';
import type { FlowRule } from '../flow/rules/index.js';
import type { FlowEvent } from '../flow/timeline.js';
import type { Registry } from '../resources/registry.js';
import type { Facts, Resource } from '../resources/resource.js';
import type { RunState } from '../state/runState.js';
import type { OutboxEvent } from './outboxSource.js';

/** What the relay does with one event, decided right before it is sent (after its order's earlier events). */
export type Judgement =
  | { kind: 'send'; resource: Resource; facts: Facts; hash: string; warnings: Issue[] }
  /** An identical repeat of a record the service already has (a resend after kill -9): not sent again. */
  | { kind: 'repeat'; resource: Resource; issues: Issue[] }
  | { kind: 'invalid'; issues: Issue[] };

export const locationOf = (event: OutboxEvent, file: string): RecordLocation => ({
  file,
  index: null,
  line: event.id,
});

const unknownEndpoint = (endpoint: unknown, registry: Registry): Issue => ({
  severity: 'error',
  code: 'unknown-endpoint',
  path: 'endpoint',
  message: `the event names the endpoint ${JSON.stringify(endpoint)}, which the service does not have`,
  hint: `write one of ${registry.names.join(', ')} in the endpoint column`,
  value: endpoint,
});

/** The endpoint and order id an event names, or undefined (the event is judged invalid when taken). */
export function orderOf(
  endpoint: unknown,
  body: unknown,
  registry: Registry,
): { resource: Resource; orderId: string } | undefined {
  const resource = typeof endpoint === 'string' ? registry.get(endpoint) : undefined;
  if (!resource || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const id = (body as Record<string, unknown>)[resource.orderField];
  return typeof id === 'string' && id !== '' ? { resource, orderId: id } : undefined;
}

/**
 * The same checks as every run, for one event: its schema and the endpoint's checks (checkRecord),
 * then the flow rules over its order's timeline as the state knows it now.
 */
export function judgeEvent(
  event: OutboxEvent,
  file: string,
  registry: Registry,
  state: RunState,
  rules: readonly FlowRule[],
  now: Date,
): Judgement {
  if (event.problem !== undefined) return { kind: 'invalid', issues: [event.problem] };
  const resource = typeof event.endpoint === 'string' ? registry.get(event.endpoint) : undefined;
  if (!resource) return { kind: 'invalid', issues: [unknownEndpoint(event.endpoint, registry)] };
  const checked = checkRecord(resource, event.body, [], { now });
  const errors = checked.issues.filter((issue) => issue.severity === 'error');
  if (errors.length > 0 || !checked.facts) return { kind: 'invalid', issues: checked.issues };
  const facts = checked.facts;
  const flow: FlowEvent = {
    facts,
    resource,
    location: locationOf(event, file),
    seq: 0,
    hash: checked.hash,
    schemaValid: true,
    replay: resource.role !== 'creation' && state.journalOutcome(checked.hash) === 'accepted',
  };
  if (resource.claimedByCreation) flow.owners = state.claimants(facts.key);
  const verdict = evaluateTimeline(
    { orderId: facts.orderId, prior: state.priorOrder(facts.orderId), events: [flow] },
    // A creation knows of itself; an update of an order no state has heard of is unknown only if the state
    // knows orders at all.
    { creations: state.hasOrders || resource.role === 'creation' },
    rules,
  );
  const issues = [...checked.issues, ...(verdict.issues.get(flow) ?? [])];
  if (issues.some((issue) => issue.severity === 'error')) return { kind: 'invalid', issues };
  // A creation the service already accepted (a resend after kill -9) is not sent again; an update may rightly repeat.
  const accepted = resource.role === 'creation' && state.journalOutcome(checked.hash) === 'accepted';
  if (verdict.repeats.has(flow) || accepted) return { kind: 'repeat', resource, issues };
  return { kind: 'send', resource, facts, hash: checked.hash, warnings: issues };
}
