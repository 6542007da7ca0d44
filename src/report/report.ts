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
  /** Requests that failed (the key refused, retries exhausted); records never requested are in `unsent`. */
  failed: number;
  /** When sending: valid records that were not sent (the key was refused, the run stopped, ...), skipped ones apart. */
  unsent?: number;
}

/** Per input file: how many records it held and how many were invalid. */
export interface FileSummary {
  file: string;
  endpoint: string;
  records: number;
  invalid: number;
}

/** Something the reader of a report must know about the run as a whole (a rule that was skipped, an early stop). */
export interface Note {
  code: string;
  message: string;
  /** How many records or orders it concerns, where it counts them. */
  count?: number;
}

/** What sending did, per endpoint and per evaluation decision. */
export interface Delivery {
  retried: number;
  endpoints: Record<string, { sent: number; accepted: number; rejected: number; failed: number }>;
  decisions: Record<string, number>;
}

/** The JSON report of docs/cli.md, version 1 (`files`, `notes` and, when sending, `delivery` added to it). */
export interface Report {
  version: 1;
  summary: Summary;
  issues: LocatedIssue[];
  files: FileSummary[];
  notes: Note[];
  delivery?: Delivery;
}

/** The outcome of sending one record, as the report counts it. */
export type SendResult =
  | { kind: 'accepted'; decision?: string }
  | { kind: 'rejected'; issue: Issue }
  | { kind: 'failed'; issue: Issue };

export interface ReportOptions {
  /** Warnings count, and are shown, as errors. */
  strict: boolean;
  /** Estimated bytes of issues and per-file entries kept (a long sandbox session); past them, only counted. */
  keepBytes?: number;
}

/** Estimated bytes an issue or a file entry holds (its texts, with V8's object overhead). */
const issueBytes = (issue: LocatedIssue) => 300 + 2 * (issue.message.length + (issue.hint?.length ?? 0) + issue.file.length + (issue.value === undefined ? 0 : JSON.stringify(issue.value)?.length ?? 0));
const fileBytes = (file: string) => 200 + 2 * file.length;

const emptySummary = (): Summary => ({
  records: 0, valid: 0, invalid: 0, errors: 0, warnings: 0, sent: 0, accepted: 0, rejected: 0, skipped: 0, failed: 0,
});

/** Gathers the outcome of every record into a report; pure, so every format and test shares it. */
export class ReportBuilder {
  private readonly summary = emptySummary();
  private readonly issues: LocatedIssue[] = [];
  private readonly files = new Map<string, FileSummary>();
  private readonly notes = new Map<string, Note>();
  private delivery: Delivery | undefined;
  /** Under --strict, files whose header drew a warning: it stands for each of their records. */
  private readonly headerFaulted = new Set<FileSummary>();
  /** Under keepBytes: bytes kept so far, and what was only counted past them. */
  private readonly kept = { issues: 0, files: 0 };
  private readonly dropped = { issues: 0, files: 0 };

  constructor(private readonly options: ReportOptions) {}

  private last: FileSummary | undefined;

  private file(endpoint: string, file: string): FileSummary {
    if (this.last && this.last.file === file && this.last.endpoint === endpoint) return this.last;
    const key = `${endpoint}\u0000${file}`;
    let entry = this.files.get(key);
    if (!entry) {
      entry = { file, endpoint, records: 0, invalid: 0 };
      if (this.keeps('files', fileBytes(file))) this.files.set(key, entry);
      else this.dropped.files++;
    }
    this.last = entry;
    return entry;
  }

  /** Adds issues and says whether any is an error (after --strict). */
  private push(endpoint: string, location: RecordLocation, issues: readonly Issue[]): boolean {
    let invalid = false;
    for (const issue of issues) {
      const severity = this.options.strict ? 'error' : issue.severity;
      if (severity === 'error') {
        invalid = true;
        this.summary.errors++;
      } else {
        this.summary.warnings++;
      }
      const located = { ...issue, severity, endpoint, ...location };
      if (this.options.keepBytes === undefined) {
        this.issues.push(located);
      } else if (this.keeps('issues', issueBytes(located))) {
        this.issues.push(located);
        this.listed(endpoint, location.file);
      } else {
        this.dropped.issues++;
      }
    }
    return invalid;
  }

  /** A record as read, with its issues (none for a valid one); index null is a file-level problem. Returns whether it is invalid. */
  add(endpoint: string, location: RecordLocation, issues: readonly Issue[]): boolean {
    const file = this.file(endpoint, location.file);
    let invalid = this.push(endpoint, location, issues);
    if (location.index === null) {
      // A header warning (an unknown column) is said once for the file but is true of every row: --strict faults them all.
      if (this.options.strict && file.records === 0 && issues.some((issue) => issue.severity === 'warning')) this.headerFaulted.add(file);
      return invalid;
    }
    invalid ||= this.headerFaulted.has(file);
    this.summary.records++;
    file.records++;
    if (invalid) {
      this.summary.invalid++;
      file.invalid++;
    } else {
      this.summary.valid++;
    }
    return invalid;
  }

  /** Issues found later about an already counted record (flow rules); a valid record they fault becomes invalid. */
  addLater(endpoint: string, location: RecordLocation, issues: readonly Issue[], wasValid: boolean): boolean {
    const invalid = this.push(endpoint, location, issues);
    if (invalid && wasValid && location.index !== null) {
      this.summary.valid--;
      this.summary.invalid++;
      this.file(endpoint, location.file).invalid++;
    }
    return invalid;
  }

  /**
   * Whether `bytes` more fit in keepBytes (counting them if so): three quarters for findings and
   * the entries of their records, a quarter for the entries of records without findings, so a
   * long run of valid requests never crowds out a later finding. Once full, nothing more is kept.
   */
  private keeps(kind: 'issues' | 'files', bytes: number): boolean {
    if (this.options.keepBytes === undefined) return true;
    if (this.kept[kind] >= this.options.keepBytes * (kind === 'issues' ? 0.75 : 0.25)) return false;
    this.kept[kind] += bytes;
    return true;
  }

  /** A kept finding's record has its entry in the report (JUnit lists findings by entry), charged with the findings. */
  private listed(endpoint: string, file: string): void {
    const key = `${endpoint}\u0000${file}`;
    if (this.files.has(key)) return;
    // Not in the report: counted as dropped when first met (the entry in hand, or one met long before, as for a finding at the session's end).
    const entry = this.last && this.last.file === file && this.last.endpoint === endpoint ? this.last : { file, endpoint, records: 0, invalid: 0 };
    this.files.set(key, entry);
    this.kept.issues += fileBytes(file);
    this.dropped.files--;
  }

  /** Whether a note with this code was made. */
  hasNote(code: string): boolean {
    for (const note of this.notes.values()) if (note.code === code) return true;
    return false;
  }

  /** A note about the run, said once; repeated notes add up their counts. */
  note(code: string, message: string, count?: number): void {
    const key = `${code}\u0000${message}`;
    const existing = this.notes.get(key);
    if (existing && count !== undefined) existing.count = (existing.count ?? 0) + count;
    else if (!existing) this.notes.set(key, count === undefined ? { code, message } : { code, message, count });
  }

  /** A record that was sent (or could not be): counted per endpoint and decision; problems become issues. */
  addSent(endpoint: string, location: RecordLocation, result: SendResult, requested: boolean): void {
    this.delivery ??= { retried: 0, endpoints: {}, decisions: {} };
    const counts = (this.delivery.endpoints[endpoint] ??= { sent: 0, accepted: 0, rejected: 0, failed: 0 });
    if (requested) {
      this.summary.sent++;
      counts.sent++;
    }
    if (result.kind === 'accepted') {
      this.summary.accepted++;
      counts.accepted++;
      if (result.decision) this.delivery.decisions[result.decision] = (this.delivery.decisions[result.decision] ?? 0) + 1;
      return;
    }
    this.push(endpoint, location, [result.issue]);
    if (result.kind === 'rejected') {
      this.summary.rejected++;
      counts.rejected++;
    } else if (requested) {
      this.summary.failed++;
      counts.failed++;
    }
  }

  /** A record not sent because an earlier run or this one already sent it (an identical repeat). */
  addSkipped(): void {
    this.summary.skipped++;
  }

  addRetries(count: number): void {
    this.delivery ??= { retried: 0, endpoints: {}, decisions: {} };
    this.delivery.retried += count;
  }

  /** The issues that make a record invalid under this report's rules (--strict counts warnings). */
  faulting(issues: readonly Issue[]): Issue[] {
    return this.options.strict ? [...issues] : issues.filter((issue) => issue.severity === 'error');
  }

  faults(issues: readonly Issue[]): boolean {
    return this.faulting(issues).length > 0;
  }

  get validRecords(): number {
    return this.summary.valid;
  }

  get invalidRecords(): number {
    return this.summary.invalid;
  }

  private droppedNotes(): Note[] {
    const notes: Note[] = [];
    if (this.dropped.issues > 0) notes.push({ code: 'findings-not-kept', count: this.dropped.issues, message: 'findings past --keep-mb were counted (in the summary) but not kept in this report' });
    if (this.dropped.files > 0) notes.push({ code: 'requests-not-listed', count: this.dropped.files, message: 'requests past --keep-mb were counted (in the summary) but have no entry of their own in this report' });
    return notes;
  }

  /** The report, issues ordered by file (in reading order) and record, as people read them. */
  build(): Report {
    const order = new Map([...this.files.values()].map((entry, position) => [`${entry.endpoint}\u0000${entry.file}`, position]));
    const issues = this.issues
      .map((issue, position) => ({ issue, position }))
      .sort((a, b) =>
        (order.get(`${a.issue.endpoint}\u0000${a.issue.file}`)! - order.get(`${b.issue.endpoint}\u0000${b.issue.file}`)!) ||
        ((a.issue.index ?? -1) - (b.issue.index ?? -1)) ||
        (a.position - b.position))
      .map(({ issue }) => issue);
    const summary = { ...this.summary, ...(this.delivery ? { unsent: Math.max(0, this.summary.valid - this.summary.sent - this.summary.skipped) } : {}) };
    return {
      version: 1, summary, issues, files: [...this.files.values()].map((f) => ({ ...f })), notes: [...this.notes.values(), ...this.droppedNotes()],
      ...(this.delivery ? { delivery: structuredClone(this.delivery) } : {}),
    };
  }
}

/** Whether a report holds an error: an invalid or rejected record, or a problem with a file. */
export function reportIsFaulty(report: Report): boolean {
  return report.summary.errors > 0 || report.summary.invalid > 0 || report.summary.rejected > 0;
}

/** Exit code of a finished check (see core/exitCodes.ts): 1 when any record or file has an error. */
export function reportExitCode(report: Report): 0 | 1 {
  return reportIsFaulty(report) ? 1 : 0;
}
