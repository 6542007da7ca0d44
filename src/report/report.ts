import type { Issue, LocatedIssue, RecordLocation } from '../core/issue.js';

export interface Summary {
  records: number;
  valid: number;
  invalid: number;
  errors: number;
  warnings: number;
  sent: number;
  accepted: number;
  rejected: number;
  skipped: number;
  failed: number;
}

/** The JSON report of cli.md, version 1. */
export interface Report {
  version: 1;
  summary: Summary;
  issues: LocatedIssue[];
}

export interface ReportOptions {
  /** Warnings count, and are shown, as errors. */
  strict: boolean;
}

const emptySummary = (): Summary => ({
  records: 0, valid: 0, invalid: 0, errors: 0, warnings: 0, sent: 0, accepted: 0, rejected: 0, skipped: 0, failed: 0,
});

/** Gathers the outcome of every record into a report; pure, so every format and test shares it. */
export class ReportBuilder {
  private readonly summary = emptySummary();
  private readonly issues: LocatedIssue[] = [];

  constructor(private readonly options: ReportOptions) {}

  /** A record and its issues (none for a valid one). A location with index null is a file-level problem. */
  add(endpoint: string, location: RecordLocation, issues: readonly Issue[]): void {
    let invalid = false;
    for (const issue of issues) {
      const severity = this.options.strict ? 'error' : issue.severity;
      if (severity === 'error') {
        invalid = true;
        this.summary.errors++;
      } else {
        this.summary.warnings++;
      }
      this.issues.push({ ...issue, severity, endpoint, ...location });
    }
    if (location.index === null) return;
    this.summary.records++;
    if (invalid) this.summary.invalid++;
    else this.summary.valid++;
  }

  build(): Report {
    return { version: 1, summary: { ...this.summary }, issues: this.issues };
  }
}

/** Exit code of a finished dry run (cli.md): 1 when any record or file has an error. */
export function reportExitCode(report: Report): 0 | 1 {
  return report.summary.errors > 0 || report.summary.invalid > 0 || report.summary.rejected > 0 ? 1 : 0;
}
