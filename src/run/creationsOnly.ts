import type { RecordLocation } from '../core/issue.js';
import { contentHash } from '../flow/canonical.js';
import { evaluateTimeline } from '../flow/evaluate.js';
import { FingerprintSet } from '../flow/fingerprintSet.js';
import { creationsJudgedAsRead, ruleAppliesTo } from '../flow/rules/rule.js';
import type { FlowEvent, PriorOrder } from '../flow/timeline.js';
import { readRecords } from '../decode/readRecords.js';
import { flowOf, unpackFlow, type OrderFlow } from '../report/orderFlow.js';
import type { ReadRecord } from '../decode/readRecords.js';
import type { Resource } from '../resources/resource.js';
import type { Remembered } from '../state/remembered.js';
import type { CheckRecordsOptions } from './checkOptions.js';

// Records remembered per batch: small enough that they die young (docs/architecture.md, dry-run shortcuts).
const REMEMBER_BATCH = 1000;

/**
 * A flow event whose content hash is computed only when a rule or the state reads it (a class: its getter on
 * the prototype costs nothing per event).
 */
class LazyEvent implements FlowEvent {
  readonly replay = false;

  constructor(
    readonly resource: Resource,
    private readonly value: unknown,
    readonly facts: FlowEvent['facts'],
    readonly location: RecordLocation,
    readonly seq: number,
    readonly schemaValid: boolean,
    private known: string | undefined,
  ) {}

  get hash(): string {
    return (this.known ??= contentHash(this.resource.name, this.value));
  }
}

/**
 * The lean path of a run of creations alone that sends nothing (checking an export, in CI or
 * before a backfill): no run index. While the rules that judge creations judge each against the
 * state and the creations of its order BEFORE it, never after (creationsJudgedAsRead), a
 * creation whose order id is new to the run is judged (and remembered) as soon as it is read;
 * one whose id fingerprint was already seen is held back, and pass 2 reads only the orders of
 * held creations again, to judge them with their whole timeline.
 */
export class CreationsOnly {
  private readonly fingerprints = new FingerprintSet();
  /** Reading positions of the creations held back for pass 2. */
  private readonly held = new Set<number>();
  /** The order ids of held creations (a fingerprint clash too: checked against the real ids). */
  private readonly candidates = new Set<string>();
  private remembered: Remembered[] = [];
  private readonly rules;
  private readonly knowledge = { creations: true };

  constructor(private readonly options: CheckRecordsOptions) {
    this.rules = options.rules.filter(
      (rule) => rule.check && options.inputs.some((input) => ruleAppliesTo(rule, input.resource)),
    );
  }

  /** Whether a run can take this path: creations only, nothing to send or write out. */
  static fits(options: CheckRecordsOptions): boolean {
    const resources = options.inputs.map((input) => input.resource);
    return (
      resources.every((resource) => resource.role === 'creation') &&
      !options.sink &&
      creationsJudgedAsRead(options.rules, resources)
    );
  }

  /**
   * No state to read or write, no shard to pick: a lone creation has nothing to be judged against, so its
   * order id is all pass 1 needs.
   */
  get needsOnlyIds(): boolean {
    return !this.options.remember && !this.options.state.hasOrders && !this.options.keep;
  }

  /** Pass 1: one record read, at reading position `seq`, after its schema check. */
  judge(
    seq: number,
    resource: Resource,
    record: ReadRecord,
    location: RecordLocation,
    schemaValid: boolean,
  ): void {
    if (!this.options.remember && !this.options.state.hasOrders) {
      // No state to read or write: a lone creation has nothing to be judged against, so its id is all pass 1 needs.
      const id = record.checked.orderId;
      if (id !== '' && this.fingerprints.add(id)) {
        this.held.add(seq);
        this.candidates.add(id);
      } else if (record.checked.flow) {
        // Counted as a lone creation; should its order come again, pass 2 counts the whole order in its place.
        this.options.ledger.addFlow(unpackFlow(record.checked.flow));
      }
      return;
    }
    const { facts } = record.checked;
    if (!facts) return;
    if (this.fingerprints.add(facts.orderId)) {
      this.held.add(seq);
      this.candidates.add(facts.orderId);
      return;
    }
    const event = new LazyEvent(
      resource,
      record.value,
      facts,
      location,
      seq,
      schemaValid,
      record.checked.hash,
    );
    const prior = this.options.state.priorOrder(facts.orderId);
    // Remembered as new: should the order come again, pass 2 must not take it for an earlier run's.
    if (this.settle(facts.orderId, prior, [event], () => true) && prior === null)
      this.fingerprints.flag(facts.orderId);
  }

  /** Pass 2: the orders of held creations read again, each judged with its whole timeline; then what to remember. */
  async finish(): Promise<void> {
    const { options } = this;
    if (this.candidates.size > 0) {
      const byOrder = new Map<string, FlowEvent[]>();
      let seq = 0;
      for (const { resource, spec, map } of options.inputs) {
        for await (const record of readRecords(spec, resource, options.stdin, {
          hooks: map,
          limits: options.limits,
          now: options.now,
          needs: options.keep ? 'values' : 'digests',
          signal: options.signal,
        })) {
          if (options.keep && !options.keep(resource, record.value)) continue; // another shard's, as in pass 1
          const at = seq++;
          const { facts, issues, hash } = record.checked;
          if (!facts || !this.candidates.has(facts.orderId)) continue;
          const event = new LazyEvent(
            resource,
            record.value,
            facts,
            { file: record.file, index: record.index, line: record.line },
            at,
            !options.ledger.faults(issues),
            hash,
          );
          const list = byOrder.get(facts.orderId);
          if (list) list.push(event);
          else byOrder.set(facts.orderId, [event]);
        }
      }
      for (const [orderId, events] of byOrder) {
        if (options.shouldStop?.()) break;
        const mine = (event: FlowEvent) => this.held.has(event.seq);
        // Its first creation, judged in pass 1, was remembered as a new order: the state before the run had none.
        const createdHere = !mine(events[0]!) && this.fingerprints.flagged(orderId);
        const prior = createdHere ? null : options.state.priorOrder(orderId);
        // Its first creation, judged in pass 1, was counted alone there: the whole order replaces it.
        const counted = mine(events[0]!) ? undefined : flowOf(prior, [events[0]!]);
        this.settle(orderId, prior, events, mine, counted);
      }
    }
    this.flush();
  }

  /**
   * Judges one order's timeline after what the state knew before the run; reports and remembers
   * the events `mine` selects, and counts the order's flow in place of the one `counted` before.
   * Returns whether it remembered any.
   */
  private settle(
    orderId: string,
    prior: PriorOrder | null,
    events: FlowEvent[],
    mine: (event: FlowEvent) => boolean,
    counted?: OrderFlow,
  ): boolean {
    const { ledger } = this.options;
    let remembered = false;
    const verdict = evaluateTimeline({ orderId, prior, events }, this.knowledge, this.rules);
    ledger.addFlow(flowOf(prior, events), counted);
    for (const skip of verdict.skips) ledger.note(skip.code, `not checked: ${skip.reason}`, 1);
    for (const event of events) {
      if (!mine(event)) continue;
      const issues = verdict.issues.get(event);
      const flowInvalid = issues
        ? ledger.addLater(event.resource.name, event.location, issues, event.schemaValid)
        : false;
      if (this.options.remember && event.schemaValid && !flowInvalid) {
        this.remembered.push({
          facts: event.facts,
          resource: event.resource,
          hash: event.hash,
          outcome: 'validated',
        });
        remembered = true;
        if (this.remembered.length >= REMEMBER_BATCH) this.flush();
      }
    }
    return remembered;
  }

  private flush(): void {
    if (this.remembered.length === 0) return;
    this.options.state.remember(this.remembered, this.options.now);
    this.remembered = [];
  }
}
