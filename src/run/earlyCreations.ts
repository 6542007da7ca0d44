import { FingerprintSet } from '../flow/fingerprintSet.js';
import { creationsJudgedAsRead } from '../flow/rules/rule.js';
import type { Facts, Resource } from '../resources/resource.js';
import type { Remembered } from '../state/remembered.js';
import type { CheckRecordsOptions } from './checkOptions.js';

/** Creations remembered per batch: small enough that they die young (docs/architecture.md, dry-run shortcuts). */
const BATCH = 1000;

/**
 * A dry run's creations remembered while they are read, not in a pass after the reading.
 * While every rule that judges creations faults only repeats
 * (creationsJudgedAsRead), the first valid creation of an order the state does not know stays
 * valid: it is remembered at once, and flagged in the run index so that pass 2 neither
 * remembers it again nor reads the state's new row as an earlier run's.
 * A later creation of a seen order id (or of a clashing fingerprint) is left to pass 2.
 * As on the creations-only path, a run stopped while reading (--max-errors, Ctrl-C) keeps the
 * creations it remembered; one that fails keeps those handed over before the failure.
 */
export class EarlyCreations {
  private readonly seen = new FingerprintSet();
  private batch: Remembered[] = [];

  private constructor(private readonly options: CheckRecordsOptions) {}

  /**
   * For a run that remembers its valid records itself (a dry run), not one whose sink remembers what the
   * service answered.
   */
  static of(options: CheckRecordsOptions): EarlyCreations | undefined {
    const allowed = creationsJudgedAsRead(
      options.rules,
      options.inputs.map((input) => input.resource),
    );
    return options.remember && !options.sink && allowed ? new EarlyCreations(options) : undefined;
  }

  /** Remembers a record read now if it is such a creation; true when it did. */
  take(resource: Resource, facts: Facts, hash: string, schemaValid: boolean): boolean {
    if (resource.role !== 'creation') return false;
    // Every creation's id is noted, valid or not: a later one of the same order is pass 2's to judge.
    if (this.seen.add(facts.orderId) || !schemaValid) return false;
    if (this.options.state.priorOrder(facts.orderId) !== null) return false;
    this.batch.push({ facts, resource, hash, outcome: 'validated' });
    if (this.batch.length >= BATCH) this.flush();
    return true;
  }

  /** Remembers what is listed. */
  flush(): void {
    if (this.batch.length === 0) return;
    this.options.state.remember(this.batch, this.options.now);
    this.batch = [];
  }
}
