import type { Issue, RecordLocation } from '../core/issue.js';

/**
 * Whether a record is invalid under a run's rules (--strict counts warnings as errors): the one
 * place that says so, for the report that counts records and for the run that steers by them.
 */
export class RecordVerdicts {
  /** Under --strict, files whose header drew a warning: it stands for each of their records. */
  private readonly headerFaulted = new Set<string>();
  /** Under --strict, files that had a record: a warning after their first record is not the header's. */
  private readonly counted = new Set<string>();

  constructor(readonly strict: boolean) {}

  /** The issues that make a record invalid. */
  faulting(issues: readonly Issue[]): Issue[] {
    return this.strict ? [...issues] : issues.filter((issue) => issue.severity === 'error');
  }

  faults(issues: readonly Issue[]): boolean {
    return this.strict ? issues.length > 0 : issues.some((issue) => issue.severity === 'error');
  }

  /**
   * A record as read (index null: a problem of its file) is invalid; under --strict a header warning faults
   * its file's records.
   */
  read(endpoint: string, location: RecordLocation, issues: readonly Issue[]): boolean {
    const invalid = this.faults(issues);
    if (!this.strict) return invalid;
    const file = `${endpoint}\u0000${location.file}`;
    if (location.index === null) {
      if (!this.counted.has(file) && issues.some((issue) => issue.severity === 'warning'))
        this.headerFaulted.add(file);
      return invalid;
    }
    this.counted.add(file);
    return invalid || this.headerFaulted.has(file);
  }
}
