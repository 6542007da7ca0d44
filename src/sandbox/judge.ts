import type { Issue, RecordLocation } from '../core/issue.js';
import { contentHash } from '../flow/canonical.js';
import { evaluateTimeline } from '../flow/evaluate.js';
import { flowRules as allFlowRules, type FlowRule } from '../flow/rules/index.js';
import { ruleAppliesTo } from '../flow/rules/rule.js';
import type { FlowEvent, OrderTimeline, PriorOrder } from '../flow/timeline.js';
import type { ReportBuilder } from '../report/report.js';
import type { Registry } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';
import { isRecord } from '../schema/checks.js';
import { readDecision, serviceMessage } from '../send/responseBody.js';
import { validateRecord } from '../validate/validateRecord.js';
import { headerIssues, parseJsonBody, unknownEndpoint, type ReceivedRequest } from './protocolRules.js';

/** What the judge made of one request: its place in the session, and the record it carried. */
export interface Judgement {
  seq: number;
  location: RecordLocation;
  resource?: Resource;
  /** The body, when it was JSON. */
  body?: unknown;
  /** The request's place in its order's timeline, when it named an order. */
  event?: FlowEvent;
  issues: Issue[];
}

/** Endpoint name of a request that matches no endpoint, as the report shows it. */
export const UNKNOWN_ENDPOINT = 'unknown';

/** The service took the request: not a throttle, a failure or a dropped connection (those are retried, so they leave the flow). */
const taken = (status: number | null): status is number => status !== null && status !== 429 && status < 500;

/** What the session learned of an order from the service's answers (its evaluation decision). */
const learned = (decision: string): PriorOrder => ({
  created: false, hash: '', evaluate: false, decision, lastStatus: null, payments: {}, deliveryIds: [], fraudTypes: [],
});

/**
 * Judges the requests of one sandbox session as a file run judges records: protocol rules,
 * schemas, and the flow rules over each order's timeline in arrival order. A request's flow
 * findings are those its arrival adds; what later calls do never takes them back. Pure: the
 * server passes requests in and answers back.
 */
export class SessionJudge {
  private seq = 0;
  private readonly timelines = new Map<string, OrderTimeline>();
  /** Key of a claimed record (a delivery id) -> the orders whose creations claim it. */
  private readonly claims = new Map<string, Set<string>>();

  constructor(
    private readonly builder: ReportBuilder,
    private readonly registry: Registry,
    private readonly rules: readonly FlowRule[] = allFlowRules,
  ) {}

  /** Judges a request as it arrives; its findings go into the report at once. */
  receive(request: ReceivedRequest): Judgement {
    const seq = ++this.seq;
    const location: RecordLocation = { file: `request #${seq} ${request.method} ${request.path} at ${request.at.toISOString()}`, index: 0, line: seq };
    const resource = this.registry.byRoute(request.method, request.path);
    if (!resource) {
      const issues = [unknownEndpoint(request, this.registry)];
      this.builder.add(UNKNOWN_ENDPOINT, location, issues);
      return { seq, location, issues };
    }
    const issues = headerIssues(request, resource);
    const parsed = parseJsonBody(request.body);
    if (!parsed.ok) {
      issues.push(parsed.issue);
      this.builder.add(resource.name, location, issues);
      return { seq, location, resource, issues };
    }
    const body = parsed.value;
    issues.push(...validateRecord(resource, body, { now: request.at }));
    const facts = isRecord(body) ? resource.facts(body) : null;
    let event: FlowEvent | undefined;
    if (facts) {
      event = {
        facts, resource, location, seq, hash: contentHash(resource.name, body), schemaValid: !this.builder.faults(issues), replay: false,
      };
      if (resource.claimedByCreation) event.owners = [...(this.claims.get(facts.key) ?? [])];
      for (const key of facts.claims ?? []) {
        const owners = this.claims.get(key) ?? new Set<string>();
        this.claims.set(key, owners.add(facts.orderId));
      }
      issues.push(...this.flowIssues(event));
    }
    this.builder.add(resource.name, location, issues);
    return { seq, location, resource, body, ...(event ? { event } : {}), issues };
  }

  /** The flow findings the arrival of `event` adds: the rules over its order's timeline, this event's hits only. */
  private flowIssues(event: FlowEvent): Issue[] {
    const orderId = event.facts.orderId;
    let timeline = this.timelines.get(orderId);
    if (!timeline) {
      timeline = { orderId, prior: null, events: [] };
      this.timelines.set(orderId, timeline);
    }
    timeline.events.push(event);
    // The session is the whole world: an order it did not see created does not exist for it.
    const verdict = evaluateTimeline(timeline, { creations: true }, this.rules);
    for (const skip of verdict.skips) {
      const rule = this.rules.find((candidate) => candidate.code === skip.code);
      if (rule && ruleAppliesTo(rule, event.resource)) this.builder.note(skip.code, `not checked: ${skip.reason}`, 1);
    }
    return verdict.issues.get(event) ?? [];
  }

  /**
   * The service's answer to a judged request: a creation's evaluation decision joins its order's
   * timeline; a request the service did not take leaves it (the application will retry it); a
   * refusal the judge did not foresee becomes a finding of its own.
   */
  answered(judgement: Judgement, status: number | null, body: unknown, text = ''): void {
    const { event, resource } = judgement;
    if (!taken(status)) {
      if (event) this.withdraw(event);
      this.builder.note('not-taken', 'requests the service did not take (429, 5xx or no answer) are left out of the flow rules, since they are sent again', 1);
      return;
    }
    if (status >= 400 && !this.builder.faults(judgement.issues)) {
      const refusal: Issue = {
        severity: 'error', code: 'service-refused', path: '', message: `the service answered ${status}: ${serviceMessage(body, text)}`,
        hint: 'no rule of collect foresaw this refusal: read the service\'s message',
      };
      judgement.issues.push(refusal);
      this.builder.addLater(resource?.name ?? UNKNOWN_ENDPOINT, judgement.location, [refusal], true);
    }
    if (event && resource?.role === 'creation' && status < 300) {
      const decision = readDecision(body);
      const timeline = this.timelines.get(event.facts.orderId);
      if (decision && timeline) timeline.prior = learned(decision);
    }
  }

  private withdraw(event: FlowEvent): void {
    const timeline = this.timelines.get(event.facts.orderId);
    if (!timeline) return;
    const at = timeline.events.indexOf(event);
    if (at >= 0) timeline.events.splice(at, 1);
  }

  /** How many requests were judged. */
  get requests(): number {
    return this.seq;
  }
}
