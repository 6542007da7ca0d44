import type { Issue } from '../core/issue.js';
import type { Resource } from '../resources/resource.js';
import { ruleAppliesTo, type FlowRule } from './rules/rule.js';
import type { FlowEvent, Knowledge, OrderTimeline, RuleSkip } from './timeline.js';

export interface TimelineVerdict {
  /** The flow issues of each event that has any. */
  issues: Map<FlowEvent, Issue[]>;
  /** Identical repeats of a record: valid, but sent once. */
  repeats: Set<FlowEvent>;
  skips: RuleSkip[];
}

const orders = new WeakMap<readonly FlowRule[], readonly FlowRule[]>();

/** The rules in the order they judge: those that read the others' findings last (worked out once per list). */
function judgingOrder(rules: readonly FlowRule[]): readonly FlowRule[] {
  let ordered = orders.get(rules);
  if (!ordered)
    orders.set(
      rules,
      (ordered = [...rules.filter((rule) => !rule.judgedLast), ...rules.filter((rule) => rule.judgedLast)]),
    );
  return ordered;
}

/** Runs every rule that can judge with what the run knows over one order's timeline. */
export function evaluateTimeline(
  timeline: OrderTimeline,
  knowledge: Knowledge,
  rules: readonly FlowRule[],
): TimelineVerdict {
  const issues = new Map<FlowEvent, Issue[]>();
  const skips: RuleSkip[] = [];
  const repeats = new Set<FlowEvent>();
  // What the rules before a rule found: a creation an earlier rule faulted creates nothing.
  const faulted = (event: FlowEvent) =>
    !event.schemaValid || (issues.get(event)?.some((issue) => issue.severity === 'error') ?? false);
  for (const rule of judgingOrder(rules)) {
    if (!rule.check || (rule.needsCreations && !knowledge.creations)) continue;
    const result = rule.check(timeline, knowledge, faulted);
    skips.push(...(result.skips ?? []));
    for (const hit of result.hits) {
      // What a rule declares it judges is what the shortcuts trust (creationsJudgedAsRead): a rule outside it is a bug.
      if (!ruleAppliesTo(rule, hit.event.resource))
        throw new Error(
          `flow rule ${rule.code} faulted a ${hit.event.resource.name} record, outside its appliesTo`,
        );
      if (hit.repeat) repeats.add(hit.event);
      const issue: Issue = {
        severity: hit.severity ?? rule.severity,
        code: hit.code,
        path: hit.path,
        message: hit.message,
        hint: hit.hint,
        ...(hit.value === undefined ? {} : { value: hit.value }),
      };
      const list = issues.get(hit.event);
      if (list) list.push(issue);
      else issues.set(hit.event, [issue]);
    }
  }
  return { issues, repeats, skips };
}

/** The rules a run cannot apply at all, with why: said once in the report. */
export function rulesSkippedForKnowledge(
  rules: readonly FlowRule[],
  knowledge: Knowledge,
  resourcesInRun: Iterable<Resource>,
): RuleSkip[] {
  if (knowledge.creations) return [];
  const present = [...resourcesInRun];
  return rules
    .filter(
      (rule) =>
        rule.check && rule.needsCreations && present.some((resource) => ruleAppliesTo(rule, resource)),
    )
    .map((rule) => ({
      code: rule.code,
      reason:
        'no order creations in this run or the state, so it cannot tell which orders exist; add ' +
        'the order files, or run against the state of the runs that created them',
    }));
}
