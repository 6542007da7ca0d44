import { coverageFields } from './fieldCoverage.js';
import { countDecision } from './decisionCounts.js';
import type { OrderFlow } from './orderFlow.js';
import type { RunEvent } from './runEvents.js';

/** How many records of an endpoint carry each field of its coverage list. */
export interface EndpointCoverage {
  endpoint: string;
  records: number;
  fields: { path: string; label: string; count: number }[];
}

/** Orders counted by what their flow holds (orderFlow.ts). */
export interface FlowCoverage {
  orders: number;
  created: number;
  withStatus: number;
  declined: number;
  /**
   * Declined by the platform (its decision known not to be the service's): the ones a fraud mark is expected
   * for (§3 rule 6).
   */
  platformDeclined: number;
  platformDeclinedMarked: number;
  /** Declined by the service's own evaluation: a fraud mark is forbidden for them (§1.5), so they are counted apart. */
  serviceDeclined: number;
  /** Declined with no decision of the service known: whose decline it is cannot be told. */
  undecidedDeclined: number;
  payments: number;
  paymentsWithAcquirer: number;
}

/** Answers of one stretch of time: accepted, rejected, failed or unanswered, and the attempts made again in it. */
export interface TimelineBucket {
  accepted: number;
  rejected: number;
  unanswered: number;
  retried: number;
}

const emptyBucket = (): TimelineBucket => ({ accepted: 0, rejected: 0, unanswered: 0, retried: 0 });

export interface Timeline {
  /** Milliseconds since the epoch of the first bucket's start. */
  start: number;
  /** Minutes each bucket spans (1, doubled whenever there would be more than MAX_BUCKETS). */
  minutes: number;
  buckets: TimelineBucket[];
}

/** What the HTML report shows beyond the report itself: counts only, so its size does not grow with the input. */
export interface Insights {
  coverage: EndpointCoverage[];
  /** Absent when the run read no order's records (a run of other records alone, a sandbox session without orders). */
  flow?: FlowCoverage;
  /** Absent when nothing was sent. */
  timeline?: Timeline;
  /**
   * Evaluation decisions given by the service, by decision, capped as a run's (decisionCounts.ts): a sandbox
   * session's; a run's are in its report.
   */
  decisions: Record<string, number>;
  /** Answers the service did not give, by kind (`429`, `5xx`, `no answer`): a sandbox's faults. */
  faults: Record<string, number>;
}

/** Buckets a timeline keeps: a long run gets wider buckets, never more of them. */
export const MAX_BUCKETS = 120;
const MINUTE = 60_000;

/**
 * Folds the same run events as the report (and a sandbox's answers) into counts: field
 * coverage per endpoint, flow coverage per order, answers per minute. Constant memory: a
 * number per field and per bucket, whatever the number of records. The clock is injected.
 */
export class InsightsBuilder {
  private readonly coverage = new Map<string, { records: number; counts: number[] }>();
  private flow: FlowCoverage | undefined;
  private timeline: Timeline | undefined;
  private readonly decisions: Record<string, number> = {};
  private readonly faults: Record<string, number> = {};
  /** Retries already put on the timeline (the sender counts them; see retriedSoFar). */
  private retriesSeen = 0;

  constructor(private readonly now: () => number) {}

  apply(event: RunEvent): void {
    switch (event.kind) {
      case 'read':
        if (event.location.index !== null) this.covered(event.endpoint, event.coverage ?? 0);
        return;
      case 'order':
        return this.order(event.flow, event.replaces);
      case 'sent':
        if (!event.requested) return;
        return this.answer(event.result.kind === 'failed' ? 'unanswered' : event.result.kind);
      case 'retried':
        return this.retriedSoFar(event.count);
      default:
        return;
    }
  }

  /** A record of `endpoint` carrying the fields of `mask`. */
  covered(endpoint: string, mask: number): void {
    let entry = this.coverage.get(endpoint);
    if (!entry) {
      entry = { records: 0, counts: (coverageFields[endpoint] ?? []).map(() => 0) };
      this.coverage.set(endpoint, entry);
    }
    entry.records++;
    for (let i = 0; mask !== 0 && i < entry.counts.length; i++, mask >>>= 1) if (mask & 1) entry.counts[i]!++;
  }

  /** One order's flow; `replaces`: the flow counted before for the same order (a creation read again), taken back. */
  order(flow: OrderFlow, replaces?: OrderFlow): void {
    if (replaces) this.tally(replaces, -1);
    this.tally(flow, 1);
  }

  private tally(flow: OrderFlow, sign: 1 | -1): void {
    const counts = (this.flow ??= {
      orders: 0,
      created: 0,
      withStatus: 0,
      declined: 0,
      platformDeclined: 0,
      platformDeclinedMarked: 0,
      serviceDeclined: 0,
      undecidedDeclined: 0,
      payments: 0,
      paymentsWithAcquirer: 0,
    });
    counts.orders += sign;
    if (flow.created) counts.created += sign;
    if (flow.status) counts.withStatus += sign;
    if (flow.declined) {
      counts.declined += sign;
      if (flow.serviceRejected) counts.serviceDeclined += sign;
      else if (flow.decisionUnknown) counts.undecidedDeclined += sign;
      else {
        counts.platformDeclined += sign;
        if (flow.fraudMarked) counts.platformDeclinedMarked += sign;
      }
    }
    counts.payments += sign * flow.payments;
    counts.paymentsWithAcquirer += sign * flow.withAcquirer;
  }

  /** The sender's count of retries so far: those not yet on the timeline go in the current bucket. */
  retriedSoFar(total: number): void {
    const more = total - this.retriesSeen;
    if (more <= 0) return;
    this.retriesSeen = total;
    this.answer('retried', more);
  }

  /** One answer (or its absence, or `count` retries) at the clock's time. */
  answer(kind: keyof TimelineBucket, count = 1): void {
    const at = this.now();
    const timeline = (this.timeline ??= { start: at - (at % MINUTE), minutes: 1, buckets: [] });
    let slot = Math.max(0, Math.floor((at - timeline.start) / (timeline.minutes * MINUTE)));
    while (slot >= MAX_BUCKETS) {
      timeline.buckets = widen(timeline.buckets);
      timeline.minutes *= 2;
      slot = Math.floor((at - timeline.start) / (timeline.minutes * MINUTE));
    }
    while (timeline.buckets.length <= slot) timeline.buckets.push(emptyBucket());
    timeline.buckets[slot]![kind] += count;
  }

  /** A sandbox's answer to a request: its status (null: the connection was dropped) and the decision it gave. */
  answered(status: number | null, decision?: string): void {
    if (status === null || status === 429 || status >= 500) {
      const fault = status === null ? 'no answer' : status === 429 ? '429' : '5xx';
      this.faults[fault] = (this.faults[fault] ?? 0) + 1;
      this.answer('unanswered');
    } else {
      this.answer(status < 400 ? 'accepted' : 'rejected');
    }
    if (decision !== undefined) countDecision(this.decisions, decision);
  }

  build(): Insights {
    const coverage = [...this.coverage].map(([endpoint, { records, counts }]) => ({
      endpoint,
      records,
      fields: (coverageFields[endpoint] ?? []).map((field, i) => ({
        path: field.path,
        label: field.label,
        count: counts[i]!,
      })),
    }));
    return {
      coverage,
      ...(this.flow ? { flow: { ...this.flow } } : {}),
      ...(this.timeline
        ? { timeline: { ...this.timeline, buckets: this.timeline.buckets.map((b) => ({ ...b })) } }
        : {}),
      decisions: { ...this.decisions },
      faults: { ...this.faults },
    };
  }
}

/** Pairs of buckets merged into one (twice as long). */
function widen(buckets: readonly TimelineBucket[]): TimelineBucket[] {
  const wider: TimelineBucket[] = [];
  for (let i = 0; i < buckets.length; i += 2) {
    const a = buckets[i]!;
    const b = buckets[i + 1] ?? emptyBucket();
    wider.push({
      accepted: a.accepted + b.accepted,
      rejected: a.rejected + b.rejected,
      unanswered: a.unanswered + b.unanswered,
      retried: a.retried + b.retried,
    });
  }
  return wider;
}
