import type { Severity } from '../../core/issue.js';
import type { Facts } from '../facts.js';
import type { FlowEvent, Knowledge, OrderTimeline, RuleHit, RuleSkip } from '../timeline.js';

/** One usage rule of flow-rules.md: its stable code, what it catches, and how to fix it. */
export interface FlowRule {
  code: string;
  severity: Severity;
  /** The sections of the specification it enforces. */
  spec: string;
  catches: string;
  fix: string;
  /** The kinds of record it judges. */
  appliesTo: readonly Facts['kind'][];
  /** It cannot judge anything without knowing which orders were created. */
  needsCreations: boolean;
  /** Absent for rules enforced on each record by its endpoint's checks (no other record needed). */
  check?: (timeline: OrderTimeline, knowledge: Knowledge) => { hits: RuleHit[]; skips?: RuleSkip[] };
}

export type FactsOf<K extends Facts['kind']> = Extract<Facts, { kind: K }>;

/** The events of a timeline of one kind, typed. */
export function eventsOf<K extends Facts['kind']>(timeline: OrderTimeline, kind: K): (FlowEvent & { facts: FactsOf<K> })[] {
  return timeline.events.filter((event): event is FlowEvent & { facts: FactsOf<K> } => event.facts.kind === kind);
}

/** Whether the order was created, in this run or an earlier one. */
export function isKnownOrder(timeline: OrderTimeline): boolean {
  return timeline.prior?.created === true || timeline.events.some((event) => event.facts.kind === 'order');
}

export const where = (event: FlowEvent) => `${event.location.file}:${event.location.line ?? '?'}`;
