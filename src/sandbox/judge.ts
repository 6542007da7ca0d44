import type { Issue, RecordLocation } from '../core/issue.js';
import { contentHash } from '../flow/canonical.js';
import { evaluateTimeline } from '../flow/evaluate.js';
import { FingerprintSet } from '../flow/fingerprintSet.js';
import { flowRules as allFlowRules, type FlowRule } from '../flow/rules/index.js';
import { ruleAppliesTo } from '../flow/rules/rule.js';
import type { FlowEvent, OrderTimeline, PriorOrder } from '../flow/timeline.js';
import { orderFlow, type OrderFlow } from '../report/orderFlow.js';
import type { Report, ReportBuilder } from '../report/report.js';
import type { Registry } from '../resources/registry.js';
import type { Resource } from '../resources/resource.js';
import { isRecord } from '../schema/checks.js';
import { readDecision, serviceMessage } from '../send/responseBody.js';
import { validateRecord } from '../validate/validateRecord.js';
import { headerIssues, parseJsonBody, unknownEndpoint, type ReceivedRequest } from './protocolRules.js';
import { requestFile } from '../report/requestName.js';
import { eventBytes, foldTimeline, summaryBytes } from './timelineSummary.js';

/** A request's body as JSON, with its issues against its endpoint's schema. */
export interface CheckedBody {
  body: unknown;
  schemaIssues: readonly Issue[];
}

/** What the judge made of one request: its place in the session, and the record it carried. */
export interface Judgement {
  seq: number;
  location: RecordLocation;
  resource?: Resource;
  /**
   * The body and its schema issues, when it was JSON for an endpoint: the local service answers from them
   * instead of checking again.
   */
  checked?: CheckedBody;
  /** The request's place in its order's timeline, when it named an order. */
  event?: FlowEvent;
  issues: Issue[];
}

/** Endpoint name of a request that matches no endpoint, as the report shows it. */
export const UNKNOWN_ENDPOINT = 'unknown';

/**
 * The service did not get to judge the request (a throttle, a failure; or a dropped connection, status null):
 * the application sends it again.
 */
const unanswered = (status: number) => status === 429 || status >= 500;

/** The first `count` values of a set, in its order. */
function* take<T>(set: ReadonlySet<T>, count: number): Generator<T> {
  for (const value of set) {
    if (count-- <= 0) return;
    yield value;
  }
}

/** What the session learned of an order from the service's answers (its evaluation decision). */
const learned = (decision: string): PriorOrder => ({
  created: false,
  hash: '',
  evaluate: false,
  decision,
  lastStatus: null,
  payments: {},
  deliveryIds: [],
  fraudTypes: [],
});

/**
 * Judges the requests of one sandbox session as a file run judges records: protocol rules,
 * schemas, and the flow rules over each order's timeline in arrival order. A request's flow
 * findings are those its arrival adds; what later calls do never takes them back. Pure: the
 * server passes requests in and answers back.
 */
export class SessionJudge {
  private seq = 0;
  private finished = false;
  private readonly timelines = new Map<string, OrderTimeline>();
  /** The events of requests that already count as invalid, so a later finding does not count them twice. */
  private readonly invalid = new WeakSet<FlowEvent>();
  /** Key of a claimed record (a delivery id) -> the orders whose creations claim it. */
  private readonly claims = new Map<string, Set<string>>();
  /** Rules judged on each arrival, and rules a later call can satisfy, judged when the session ends. */
  private readonly onArrival: readonly FlowRule[];
  private readonly atEnd: readonly FlowRule[];
  /** Timelines that hold events, least recently touched first; and those folded into a summary. */
  private readonly live = new Set<OrderTimeline>();
  private readonly folded = new Set<OrderTimeline>();
  /** Estimated bytes each timeline holds, and their sum, kept within `keepBytes`. */
  private readonly cost = new Map<OrderTimeline, number>();
  private held = 0;
  /** Events whose answer has not come yet: their timeline is not folded under them. */
  private readonly pending = new Set<FlowEvent>();
  private foldedCount = 0;
  private forgottenCount = 0;
  /**
   * Fingerprints of the orders forgotten entirely (8 bytes each): a later call for one is not judged, rather
   * than judged as for an order never created.
   */
  private readonly forgotten = new FingerprintSet();
  private readonly amnesic = new WeakSet<OrderTimeline>();

  constructor(
    private readonly builder: ReportBuilder,
    private readonly registry: Registry,
    rules: readonly FlowRule[] = allFlowRules,
    /**
     * Bytes of timelines it keeps: past them the least recently used orders are folded into summaries, then
     * forgotten.
     */
    private readonly keepBytes = Number.POSITIVE_INFINITY,
  ) {
    this.onArrival = rules.filter((rule) => !rule.awaitsLaterRecords);
    this.atEnd = rules.filter((rule) => rule.awaitsLaterRecords);
  }

  /** Judges a request as it arrives; its findings go into the report at once. */
  receive(request: ReceivedRequest): Judgement {
    const seq = ++this.seq;
    const location: RecordLocation = {
      file: requestFile(seq, request.method, request.path, request.at),
      index: 0,
      line: seq,
    };
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
    const schemaIssues = validateRecord(resource, body, { now: request.at });
    issues.push(...schemaIssues);
    const facts = isRecord(body) ? resource.facts(body) : null;
    let event: FlowEvent | undefined;
    if (facts) {
      event = {
        facts,
        resource,
        location,
        seq,
        hash: contentHash(resource.name, body),
        schemaValid: !this.builder.faults(issues),
        replay: false,
      };
      if (resource.claimedByCreation) event.owners = [...(this.claims.get(facts.key) ?? [])];
      for (const key of facts.claims ?? []) {
        const owners = this.claims.get(key) ?? new Set<string>();
        this.claims.set(key, owners.add(facts.orderId));
      }
      issues.push(...this.flowIssues(event));
    }
    if (this.builder.add(resource.name, location, issues) && event) this.invalid.add(event);
    if (event) this.pending.add(event);
    return { seq, location, resource, checked: { body, schemaIssues }, ...(event ? { event } : {}), issues };
  }

  /** The flow findings the arrival of `event` adds: the rules over its order's timeline, this event's hits only. */
  private flowIssues(event: FlowEvent): Issue[] {
    const orderId = event.facts.orderId;
    let timeline = this.timelines.get(orderId);
    if (!timeline) {
      timeline = { orderId, prior: null, events: [] };
      this.timelines.set(orderId, timeline);
      if (this.forgottenCount > 0 && this.forgotten.flagged(orderId)) this.amnesic.add(timeline);
    }
    timeline.events.push(event);
    this.folded.delete(timeline);
    this.live.delete(timeline);
    this.live.add(timeline);
    this.charge(timeline, eventBytes(event));
    if (this.amnesic.has(timeline)) {
      this.builder.note(
        'order-forgotten',
        'not checked: calls for an order forgotten past --keep-mb get no flow rules',
        1,
      );
      return [];
    }
    // The session is the whole world: an order it did not see created does not exist for it.
    const verdict = evaluateTimeline(timeline, { creations: true }, this.onArrival);
    for (const skip of verdict.skips) {
      const rule = this.onArrival.find((candidate) => candidate.code === skip.code);
      if (rule && ruleAppliesTo(rule, event.resource))
        this.builder.note(skip.code, `not checked: ${skip.reason}`, 1);
    }
    return verdict.issues.get(event) ?? [];
  }

  /**
   * The service's answer to a judged request. The timelines hold what the service took: a
   * request it refused or did not answer leaves its order's timeline (a resend is then no
   * repeat). A refusal the judge did not foresee becomes a finding; a creation's evaluation
   * decision joins its order's timeline.
   */
  answered(judgement: Judgement, status: number | null, body: unknown, text = ''): void {
    const { event, resource } = judgement;
    if (event) this.pending.delete(event);
    if (event && (status === null || status >= 400)) this.withdraw(event);
    if (status === null || unanswered(status)) {
      this.builder.note(
        'not-taken',
        'requests the service did not answer (429, 5xx or a dropped connection) are left out of ' +
          'the flow rules, since they are sent again',
        1,
      );
      this.trim();
      return;
    }
    if (status >= 400 && !this.builder.faults(judgement.issues)) {
      const refusal: Issue = {
        severity: 'error',
        code: 'service-refused',
        path: '',
        message: `the service answered ${status}: ${serviceMessage(body, text)}`,
        hint: "no rule of collect foresaw this refusal: read the service's message",
      };
      judgement.issues.push(refusal);
      this.builder.addLater(resource?.name ?? UNKNOWN_ENDPOINT, judgement.location, [refusal], true);
      if (event) this.invalid.add(event);
    }
    if (event && resource?.role === 'creation' && status < 300) {
      const decision = readDecision(body);
      const timeline = this.timelines.get(event.facts.orderId);
      if (decision && timeline)
        timeline.prior = timeline.prior ? { ...timeline.prior, decision } : learned(decision);
    }
    this.trim();
  }

  private charge(timeline: OrderTimeline, bytes: number): void {
    this.cost.set(timeline, (this.cost.get(timeline) ?? 0) + bytes);
    this.held += bytes;
  }

  /**
   * Keeps the timelines within keepBytes: the least recently used order with no call awaiting
   * its answer is folded into a summary (foldTimeline); when only summaries are left, the
   * oldest is forgotten (a later call for it is judged as for an order never created).
   */
  private trim(): void {
    while (this.held > this.keepBytes) {
      const oldest = [...take(this.live, 32)].find(
        (timeline) => !timeline.events.some((event) => this.pending.has(event)),
      );
      if (oldest) {
        this.fold(oldest);
        continue;
      }
      const summary = this.folded.values().next();
      if (summary.done) return;
      this.folded.delete(summary.value);
      this.timelines.delete(summary.value.orderId);
      this.held -= this.cost.get(summary.value) ?? 0;
      this.cost.delete(summary.value);
      this.forgotten.add(summary.value.orderId);
      this.forgotten.flag(summary.value.orderId);
      this.forgottenCount++;
    }
  }

  private fold(timeline: OrderTimeline): void {
    for (const event of timeline.events) {
      // A delivery id this order's creation claimed is no longer looked up for other orders.
      for (const key of event.facts.claims ?? []) {
        const owners = this.claims.get(key);
        owners?.delete(timeline.orderId);
        if (owners?.size === 0) this.claims.delete(key);
      }
    }
    timeline.prior = foldTimeline(timeline);
    timeline.events = [];
    this.live.delete(timeline);
    this.folded.add(timeline);
    this.held -= this.cost.get(timeline) ?? 0;
    this.cost.set(timeline, 0);
    this.charge(timeline, summaryBytes(timeline.orderId, timeline.prior));
    this.foldedCount++;
  }

  /** Ends the session: the rules a later call could have satisfied, over each order's whole timeline. Once. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (const timeline of this.timelines.values()) {
      const verdict = evaluateTimeline(timeline, { creations: true }, this.atEnd);
      for (const [event, issues] of verdict.issues) {
        if (this.builder.addLater(event.resource.name, event.location, issues, !this.invalid.has(event)))
          this.invalid.add(event);
      }
      for (const skip of verdict.skips) this.builder.note(skip.code, `not checked: ${skip.reason}`, 1);
    }
  }

  /** The report so far; before the end, with a note on the rules that wait for it. */
  report(): Report {
    const report = this.builder.build();
    if (this.foldedCount > 0) {
      report.notes.push({
        code: 'orders-folded',
        count: this.foldedCount,
        message:
          'orders whose calls were let go past --keep-mb, least recently used first: their later ' +
          'calls are judged against a summary (created, evaluation decision, last status, payments, ' +
          'deliveries, fraud marks), and missing-fraud-mark is not judged for the calls let go',
      });
    }
    if (this.forgottenCount > 0) {
      report.notes.push({
        code: 'orders-forgotten',
        count: this.forgottenCount,
        message:
          'orders forgotten entirely past --keep-mb (even their summary): later calls for them get ' +
          'no flow rules (an order-forgotten note counts them)',
      });
    }
    if (!this.finished) {
      for (const rule of this.atEnd)
        report.notes.push({
          code: rule.code,
          message: 'judged when the sandbox stops, since a later call can satisfy it: not in this report yet',
        });
    }
    return report;
  }

  private withdraw(event: FlowEvent): void {
    const timeline = this.timelines.get(event.facts.orderId);
    if (!timeline) return;
    const at = timeline.events.indexOf(event);
    if (at >= 0) {
      timeline.events.splice(at, 1);
      this.charge(timeline, -eventBytes(event));
    }
  }

  /** Each order's flow as the session saw it (what it holds of it: its calls, or their summary once let go). */
  *orderFlows(): Generator<OrderFlow> {
    for (const timeline of this.timelines.values()) yield orderFlow(timeline);
  }

  /**
   * A request refused before judging (a web page's, or one for another Host): not the application's, so only
   * counted.
   */
  refusedCaller(): void {
    this.builder.note(
      'caller-refused',
      'requests refused unjudged (403): sent from a web page (Origin header) or addressed to another Host',
      1,
    );
  }

  /** How many requests were judged. */
  get requests(): number {
    return this.seq;
  }
}
