import type { Readable } from 'node:stream';
import type { ColumnMap } from '../convert/csvColumns.js';
import { contentHash } from '../flow/canonical.js';
import { evaluateTimeline, rulesSkippedForKnowledge } from '../flow/evaluate.js';
import { extractFacts } from '../flow/facts.js';
import { flowRules } from '../flow/rules/index.js';
import type { FlowEvent, OrderTimeline } from '../flow/timeline.js';
import { checkReadable, type InputSpec } from '../readers/openInput.js';
import { readRecords } from '../readers/readRecords.js';
import type { ReportBuilder } from '../report/report.js';
import { resources } from '../resources/registry.js';
import type { EndpointName } from '../resources/resource.js';
import { isRecord } from '../schema/checks.js';
import type { RunIndex } from '../state/runIndex.js';
import type { Remembered, StateStore } from '../state/stateStore.js';
import { validateRecord } from '../validate/validateRecord.js';

export interface RunInput {
  endpoint: EndpointName;
  spec: InputSpec;
}

export interface CheckRunOptions {
  inputs: readonly RunInput[];
  stdin: Readable;
  map?: ColumnMap;
  now: Date;
  builder: ReportBuilder;
  state: StateStore;
  /** Record the run's valid records in the state (a dry run's own namespace). */
  remember: boolean;
  runIndex: RunIndex;
  /** Stop reading after this many invalid records. */
  maxErrors?: number;
  onRecord?: () => void;
}

const REMEMBER_BATCH = 5000;

/** Pass 1: reads and validates every record, and indexes its flow facts. Returns false when stopped by --max-errors. */
async function readAll(options: CheckRunOptions): Promise<boolean> {
  const { builder, runIndex } = options;
  const context = { now: options.now };
  for (const { spec } of options.inputs) await checkReadable(spec);
  for (const { endpoint, spec } of options.inputs) {
    const resource = resources[endpoint];
    for await (const record of readRecords(spec, resource, options.stdin, options.map)) {
      const location = { file: record.file, index: record.index, line: record.line };
      const issues = record.value === undefined
        ? record.issues
        : validateRecord(resource, record.value, context, record.issues, { fieldsChecked: record.fieldsChecked === true });
      const invalid = builder.add(endpoint, location, issues);
      const facts = isRecord(record.value) ? extractFacts(endpoint, record.value) : null;
      if (facts) runIndex.add({ facts, endpoint, location, hash: contentHash(endpoint, record.value), schemaValid: !invalid });
      options.onRecord?.();
      if (options.maxErrors !== undefined && builder.invalidRecords >= options.maxErrors) {
        builder.note('max-errors', `stopped after ${options.maxErrors} invalid records (--max-errors); the rest of the input and the flow rules were not checked`);
        return false;
      }
    }
  }
  return true;
}

/** Pass 2: every order's records against the flow rules, and what the state remembers of them. */
function checkFlows(options: CheckRunOptions): void {
  const { builder, state, runIndex } = options;
  const knowledge = { creations: runIndex.hasCreations || state.hasOrders };
  for (const skip of rulesSkippedForKnowledge(flowRules, knowledge, runIndex.kinds)) builder.note(skip.code, `skipped: ${skip.reason}`);
  let remembered: Remembered[] = [];
  for (const indexed of runIndex.timelines()) {
    const events: FlowEvent[] = indexed.events.map(({ runOwners, ...event }) => ({
      ...event,
      replay: event.facts.kind !== 'order' && state.isJournaled(event.hash),
      ...(event.facts.kind === 'delivery' ? { deliveryOwners: [...new Set([...runOwners, ...state.deliveryOwners(event.facts.deliveryId)])] } : {}),
    }));
    const timeline: OrderTimeline = { orderId: indexed.orderId, prior: state.priorOrder(indexed.orderId), events };
    const verdict = evaluateTimeline(timeline, knowledge, flowRules);
    for (const skip of verdict.skips) builder.note(skip.code, `not checked: ${skip.reason}`, 1);
    for (const event of events) {
      const issues = verdict.issues.get(event);
      const invalid = issues ? builder.addLater(event.endpoint, event.location, issues, event.schemaValid) : false;
      if (options.remember && event.schemaValid && !invalid) {
        remembered.push({ facts: event.facts, endpoint: event.endpoint, hash: event.hash, outcome: 'validated' });
      }
    }
    if (remembered.length >= REMEMBER_BATCH) {
      state.remember(remembered, options.now);
      remembered = [];
    }
  }
  if (remembered.length > 0) state.remember(remembered, options.now);
}

/**
 * Checks a run: every record against its schema, then every order's records against the
 * flow rules, with what earlier runs recorded. Sends nothing. Returns false when --max-errors stopped it.
 */
export async function checkRun(options: CheckRunOptions): Promise<boolean> {
  if (!(await readAll(options))) return false;
  checkFlows(options);
  return true;
}
