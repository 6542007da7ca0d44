import { evaluateTimeline, rulesSkippedForKnowledge } from '../flow/evaluate.js';
import type { FlowEvent, OrderTimeline } from '../flow/timeline.js';
import { checkReadable } from '../decode/openInput.js';
import { readRecords } from '../decode/readRecords.js';
import { orderFlow } from '../report/orderFlow.js';
import type { RecordNeeds } from '../decode/sourceRecord.js';
import type { IndexedEvent } from './runIndex/runIndex.js';
import type { RunState } from '../state/runState.js';
import type { Remembered } from '../state/remembered.js';
import type { CheckRecordsOptions } from './checkOptions.js';
import { CreationsOnly } from './creationsOnly.js';
import { EarlyCreations } from './earlyCreations.js';

export type { CheckRecordsOptions, RecordSink, RunInput } from './checkOptions.js';

/**
 * Validated records per transaction of the dry-run state: larger ones write each page of its tables fewer
 * times, as orders come in no key order.
 */
const REMEMBER_BATCH = 20_000;

/** What a run needs of each record: the record itself only to send it, write it out, or pick its shard. */
function recordNeeds(options: CheckRecordsOptions, lean: CreationsOnly | undefined): RecordNeeds {
  if (lean?.needsOnlyIds) return 'ids';
  return options.sink?.needsRaw || options.sink?.needsBodies || options.keep ? 'values' : 'digests';
}

/** Pass 1: reads and validates every record, and indexes its flow facts. Returns false when stopped. */
async function readAll(options: CheckRecordsOptions, lean: CreationsOnly | undefined): Promise<boolean> {
  const { ledger: builder, runIndex, sink } = options;
  const early = lean ? undefined : EarlyCreations.of(options);
  let seq = 0;
  for (const { spec } of options.inputs) await checkReadable(spec);
  for (const { resource, spec, map } of options.inputs) {
    if (options.shouldStop?.()) return (early?.flush(), interrupted(options));
    for (const note of map?.notes ?? []) builder.note(note.code, note.message);
    for await (const record of readRecords(spec, resource, options.stdin, {
      hooks: map,
      limits: options.limits,
      now: options.now,
      needs: recordNeeds(options, lean),
      signal: options.signal,
    })) {
      if (options.keep && !options.keep(resource, record.value)) continue;
      const location = { file: record.file, index: record.index, line: record.line };
      const { issues, facts, hash, coverage } = record.checked;
      const invalid = builder.add(resource.name, location, issues, coverage);
      if (lean) {
        lean.judge(seq++, resource, record, location, !invalid);
      } else {
        const raw = sink?.needsRaw ? record.raw : undefined;
        const kept = raw && invalid ? { issues: builder.faulting(issues) } : {};
        if (facts) {
          const earlier = options.state.journalOutcome(hash);
          // A body is kept only to be sent: not for a record an earlier run already settled.
          const keepBody = sink?.needsBodies === true && !invalid && !sink.alreadyDone(earlier);
          const remembered = early?.take(resource, facts, hash, !invalid) === true;
          // An invalid creation's first error is named by the records of its order (order-invalid).
          const fault =
            invalid && resource.role === 'creation'
              ? (builder.faulting(issues)[0]?.code ?? 'invalid')
              : undefined;
          runIndex.add({
            facts,
            resource,
            location,
            hash,
            schemaValid: !invalid,
            ...kept,
            ...(fault === undefined ? {} : { fault }),
            ...(keepBody ? { body: JSON.stringify(record.value) } : {}),
            ...(raw ? { raw } : {}),
            ...(earlier ? { earlier } : {}),
            ...(remembered ? { remembered } : {}),
          });
        } else if (raw && record.index !== null) {
          runIndex.addUnkeyed({ resource, location, raw, issues: builder.faulting(issues) });
        }
      }
      options.onRecord?.();
      // A stopped run keeps what it remembered while reading (earlyCreations.ts), as the creations-only path does.
      if (options.maxErrors !== undefined && builder.invalidRecords >= options.maxErrors)
        return (early?.flush(), stopped(options));
      if (options.shouldStop?.()) return (early?.flush(), interrupted(options));
    }
  }
  early?.flush();
  // Stopped while waiting for input: the reading ended where it was.
  if (options.shouldStop?.()) return interrupted(options);
  return true;
}

function interrupted(options: CheckRecordsOptions): false {
  // Stopped by a failed state rather than Ctrl-C: the run's report says so itself (checkAndSend's state-failed note).
  if (!options.state.failed)
    options.ledger.note(
      'interrupted',
      'interrupted (Ctrl-C): what was done is saved; run the same command again to go on',
    );
  return false;
}

function stopped(options: CheckRecordsOptions): false {
  options.ledger.note(
    'max-errors',
    `stopped after ${options.maxErrors} invalid records (--max-errors); the rest of the input and ` +
      `the flow rules were not checked, and nothing was sent`,
  );
  return false;
}

/** The positions of a timeline's events, creations first, the rest in reading order. */
function sendingOrder(events: readonly FlowEvent[]): number[] {
  const positions = events.map((_, position) => position);
  return positions.sort(
    (a, b) =>
      Number(events[a]!.resource.role !== 'creation') - Number(events[b]!.resource.role !== 'creation') ||
      a - b,
  );
}

function toFlowEvent(event: IndexedEvent, state: RunState): FlowEvent {
  const { facts, resource } = event;
  const flow: FlowEvent = {
    facts,
    resource,
    location: event.location,
    seq: event.seq,
    hash: event.hash,
    schemaValid: event.schemaValid,
    replay: resource.role !== 'creation' && event.earlier !== undefined,
    ...(event.fault === undefined ? {} : { fault: event.fault }),
  };
  if (resource.claimedByCreation)
    flow.owners = [...new Set([...event.runOwners, ...state.claimants(facts.key)])];
  return flow;
}

/**
 * Pass 2: every order's records against the flow rules, with what the state knows; then each
 * record to the sink (valid ones in flow order), and what the state should remember.
 */
async function checkFlows(options: CheckRecordsOptions): Promise<void> {
  const { ledger, state, runIndex, sink } = options;
  const knowledge = { creations: runIndex.hasCreations || state.hasOrders };
  for (const skip of rulesSkippedForKnowledge(options.rules, knowledge, runIndex.resources))
    ledger.note(skip.code, `skipped: ${skip.reason}`);
  let remembered: Remembered[] = [];
  for (const indexed of runIndex.timelines()) {
    if (options.shouldStop?.()) {
      interrupted(options);
      break;
    }
    const events = indexed.events.map((event) => toFlowEvent(event, state));
    // An order whose creation was remembered as it was read was unknown to the state before the run
    // (earlyCreations.ts).
    const rememberedEarly = indexed.events.some((event) => event.remembered);
    const timeline: OrderTimeline = {
      orderId: indexed.orderId,
      prior: rememberedEarly ? null : state.priorOrder(indexed.orderId),
      events,
    };
    const verdict = evaluateTimeline(timeline, knowledge, options.rules);
    ledger.addFlow(orderFlow(timeline));
    for (const skip of verdict.skips) ledger.note(skip.code, `not checked: ${skip.reason}`, 1);
    // Flow order: an order's creation goes first, whatever the reading order; then its calls as read.
    for (const position of sendingOrder(events)) {
      const event = events[position]!;
      const issues = verdict.issues.get(event);
      const flowInvalid = issues
        ? ledger.addLater(event.resource.name, event.location, issues, event.schemaValid)
        : false;
      const valid = event.schemaValid && !flowInvalid;
      if (options.remember && valid && !indexed.events[position]!.remembered)
        remembered.push({
          facts: event.facts,
          resource: event.resource,
          hash: event.hash,
          outcome: 'validated',
        });
      if (!sink) continue;
      const { body, raw, earlier, issues: schemaIssues = [] } = indexed.events[position]!;
      if (!valid)
        sink.invalid(event.resource, event.location, raw, [
          ...schemaIssues,
          ...ledger.faulting(issues ?? []),
        ]);
      else if (verdict.repeats.has(event)) ledger.addSkipped();
      else await sink.valid(event, body, raw, earlier);
    }
    if (remembered.length >= REMEMBER_BATCH) {
      state.remember(remembered, options.now);
      remembered = [];
    }
  }
  if (remembered.length > 0) state.remember(remembered, options.now);
  if (sink)
    for (const record of runIndex.unkeyed())
      sink.invalid(record.resource, record.location, record.raw, record.issues);
}

/**
 * Checks the records of a run: every record against its schema, then every order's records
 * against the flow rules, with what earlier runs recorded; hands each record to the sink, if any.
 * Returns false when --max-errors or an interruption stopped it.
 */
export async function checkRecords(options: CheckRecordsOptions): Promise<boolean> {
  const lean = CreationsOnly.fits(options) ? new CreationsOnly(options) : undefined;
  if (!(await readAll(options, lean))) return false;
  if (lean) await lean.finish();
  else await checkFlows(options);
  return true;
}
