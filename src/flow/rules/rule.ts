import type { Severity } from '../../core/issue.js';
import type { Resource } from '../../resources/resource.js';
import type { RuleFacts } from '../facts.js';
import type { Faulted, FlowEvent, Knowledge, OrderTimeline, RuleHit, RuleSkip } from '../timeline.js';

/** One usage rule of docs/flow-rules.md: its stable code, what it catches, and how to fix it. */
export interface FlowRule {
  code: string;
  severity: Severity;
  /** The sections of the specification it enforces. */
  spec: string;
  catches: string;
  fix: string;
  /** The endpoints whose records it judges: by name, or every update endpoint. */
  appliesTo: readonly RuleFacts['kind'][] | 'updates';
  /** It cannot judge anything without knowing which orders were created. */
  needsCreations: boolean;
  /**
   * For a rule that judges creations: it faults only a creation of an order created before it (in
   * the state or earlier in the run), by what came before it alone. Absent: it may fault any
   * creation by anything in its order's timeline, and the dry-run shortcuts switch off.
   */
  faultsCreations?: 'repeats';
  /**
   * A later record of the order can satisfy it (a fraud mark sent after the decline): judged over
   * the whole timeline, so a session judging calls as they arrive judges it only when it ends.
   */
  awaitsLaterRecords?: true;
  /** It reads what the other rules found (a creation they faulted creates nothing): judged after them. */
  judgedLast?: true;
  /**
   * When it could not judge a record typed by hand, the person is told before being asked to send it (a
   * breach cannot be undone).
   */
  warnBeforeSending?: true;
  /** Absent for rules enforced on each record by its endpoint's checks (no other record needed). */
  check?: (
    timeline: OrderTimeline,
    knowledge: Knowledge,
    faulted: Faulted,
  ) => { hits: RuleHit[]; skips?: RuleSkip[] };
  /**
   * Checked right before a record is sent, with the decisions the service gave in this very run
   * (an answer can arrive after the timeline was judged): a reason not to send it.
   */
  beforeSend?: (event: FlowEvent, decisionsThisRun: ReadonlyMap<string, string>) => RuleHit | undefined;
}

/** Whether a rule judges the records of an endpoint. */
export function ruleAppliesTo(rule: FlowRule, resource: Resource): boolean {
  return rule.appliesTo === 'updates'
    ? resource.role === 'update'
    : (rule.appliesTo as readonly string[]).includes(resource.name);
}

/**
 * Whether a creation can be judged as it is read: no rule that judges the creations of these
 * endpoints may fault the first creation of an order new to the state, or look past a creation.
 */
export function creationsJudgedAsRead(rules: readonly FlowRule[], resources: Iterable<Resource>): boolean {
  const creations = [...resources].filter((resource) => resource.role === 'creation');
  return rules.every(
    (rule) =>
      !rule.check ||
      rule.faultsCreations === 'repeats' ||
      !creations.some((resource) => ruleAppliesTo(rule, resource)),
  );
}

export type FactsOf<K extends RuleFacts['kind']> = Extract<RuleFacts, { kind: K }>;

/** The events of a timeline of one endpoint, typed. */
export function eventsOf<K extends RuleFacts['kind']>(
  timeline: OrderTimeline,
  kind: K,
): (FlowEvent & { facts: FactsOf<K> })[] {
  return timeline.events.filter(
    (event): event is FlowEvent & { facts: FactsOf<K> } => event.facts.kind === kind,
  );
}

/** Whether the order was created, in this run or an earlier one. */
export function isKnownOrder(timeline: OrderTimeline): boolean {
  // A decision loaded for an order created outside collect (`collect decisions`) shows the service knows it.
  return (
    timeline.prior?.created === true ||
    timeline.prior?.decision != null ||
    timeline.events.some((event) => event.resource.role === 'creation')
  );
}

export const where = (event: FlowEvent) => `${event.location.file}:${event.location.line ?? '?'}`;
