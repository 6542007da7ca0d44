import type { Issue, LocatedIssue, RecordLocation } from '../core/issue.js';
import { countDecision } from './decisionCounts.js';
import { endpointNames } from '../resources/registry.js';
import type { EndpointName } from '../resources/resource.js';
import { GroupCounter, type IssueKey } from './groupIssues.js';
import { RecordVerdicts } from './recordVerdicts.js';
import type { RunEvent, SendResult } from './runEvents.js';
import {
  compareKeyed,
  mergeRuns,
  SAMPLE_SIZE,
  type IssueSpill,
  type KeyedIssue,
  type ReportIssues,
} from './reportIssues.js';

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

/**
 * What sending did, per endpoint and per evaluation decision (a few by name, cut, the rest as `other`:
 * decisionCounts.ts).
 */
export interface Delivery {
  retried: number;
  endpoints: Record<string, { sent: number; accepted: number; rejected: number; failed: number }>;
  decisions: Record<string, number>;
}

/** The JSON report of docs/cli.md, version 1 (`files`, `notes` and, when sending, `delivery` added to it). */
export interface Report {
  version: 1;
  summary: Summary;
  /**
   * Every issue in report order; once a builder spilled them (see ReportOptions.spill), only the first
   * SAMPLE_SIZE: ReportBuilder.issues() reads them all.
   */
  issues: LocatedIssue[];
  files: FileSummary[];
  notes: Note[];
  delivery?: Delivery;
}

export type { RunEvent, SendResult } from './runEvents.js';

export interface ReportOptions {
  /** Warnings count, and are shown, as errors. */
  strict: boolean;
  /**
   * Where issues go past `spillAt` in memory, so that the report's memory does not grow with them; without it
   * every issue stays in memory.
   */
  spill?: IssueSpill;
  /**
   * Issues held in memory before they go to the spill as one sorted run (default 20,000, or about 16 MiB of
   * their text).
   */
  spillAt?: number;
  /**
   * Without a spill (a long sandbox session): estimated bytes of issues and per-file entries kept; past them,
   * only counted.
   */
  keepBytes?: number;
}

/** Estimated bytes an issue or a file entry holds (its texts, with V8's object overhead). */
const issueBytes = (issue: LocatedIssue) =>
  300 +
  2 *
    (issue.message.length +
      (issue.hint?.length ?? 0) +
      issue.file.length +
      (issue.value === undefined ? 0 : (JSON.stringify(issue.value)?.length ?? 0)));
const fileBytes = (file: string) => 200 + 2 * file.length;

const SPILL_AT = 20_000;
const SPILL_CHARS = 8 * 1024 * 1024;
/** Runs of one level merged into one run of the next, so a merge reads from at most this many runs per level. */
const FAN_IN = 32;
/** A file no record named (never the case today): after every file. */
const UNKNOWN_FILE = Number.MAX_SAFE_INTEGER;

/** About how many characters an issue holds: what its run in memory costs. */
const charsOf = (issue: LocatedIssue) =>
  200 +
  issue.message.length +
  (issue.hint?.length ?? 0) +
  issue.path.length +
  (typeof issue.value === 'string' ? issue.value.length : 32);

const emptySummary = (): Summary => ({
  records: 0,
  valid: 0,
  invalid: 0,
  errors: 0,
  warnings: 0,
  sent: 0,
  accepted: 0,
  rejected: 0,
  skipped: 0,
  failed: 0,
});

/** Folds a run's events into a report (apply, then build); pure, so every format and test shares it. */
export class ReportBuilder {
  private readonly summary = emptySummary();
  /** Issues not yet spilled, in arrival order. */
  private buffer: KeyedIssue[] = [];
  private bufferChars = 0;
  /** Spilled runs, each with its merge level (runs of FAN_IN of a level are merged into one of the next). */
  private readonly runs: { handle: number; level: number }[] = [];
  private seq = 0;
  private readonly groups = new GroupCounter();
  private readonly firstOfCodes = new Map<string, KeyedIssue>();
  /** The first SAMPLE_SIZE issues in report order. */
  private readonly sample: KeyedIssue[] = [];
  /** Each file's place in the report (the order of `files`), by endpoint and file name. */
  private readonly positions = new Map<string, number>();
  private readonly files = new Map<string, FileSummary>();
  private readonly notes = new Map<string, Note>();
  private delivery: Delivery | undefined;
  private readonly verdicts: RecordVerdicts;
  /** Under keepBytes: bytes kept so far, and what was only counted past them. */
  private readonly kept = { issues: 0, files: 0 };
  private readonly dropped = { issues: 0, files: 0 };

  constructor(private readonly options: ReportOptions) {
    this.verdicts = new RecordVerdicts(options.strict);
  }

  /** One event of the run, in the order it happened. */
  apply(event: RunEvent): void {
    switch (event.kind) {
      case 'read':
        return void this.add(event.endpoint, event.location, event.issues);
      case 'judged':
        return void this.addLater(event.endpoint, event.location, event.issues, event.wasValid);
      case 'sent':
        return this.addSent(event.endpoint, event.location, event.result, event.requested);
      case 'skipped':
        return this.addSkipped();
      case 'retried':
        return this.addRetries(event.count);
      case 'note':
        return this.note(event.code, event.message, event.count);
      case 'order':
        return; // the flow coverage is the HTML report's (insights.ts)
    }
  }

  private last: FileSummary | undefined;

  private file(endpoint: string, file: string): FileSummary {
    if (this.last && this.last.file === file && this.last.endpoint === endpoint) return this.last;
    const key = `${endpoint}\u0000${file}`;
    let entry = this.files.get(key);
    if (!entry) {
      entry = { file, endpoint, records: 0, invalid: 0 };
      if (this.keeps('files', fileBytes(file))) this.listFile(key, entry);
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
      this.keep({ ...issue, severity, endpoint, ...location }, location);
    }
    return invalid;
  }

  private listFile(key: string, entry: FileSummary): void {
    this.positions.set(key, this.files.size);
    this.files.set(key, entry);
  }

  /**
   * Whether `bytes` more fit in keepBytes (counting them if so): three quarters for findings and
   * one for the entries of files (requests), so that valid requests cannot crowd out a later finding.
   */
  private keeps(kind: 'issues' | 'files', bytes: number): boolean {
    if (this.options.keepBytes === undefined) return true;
    if (this.kept[kind] >= this.options.keepBytes * (kind === 'issues' ? 0.75 : 0.25)) return false;
    this.kept[kind] += bytes;
    return true;
  }

  /** A kept finding's file gets its entry, even past the files' share (it was counted as dropped when first met). */
  private listed(endpoint: string, file: string): void {
    const key = `${endpoint}\u0000${file}`;
    if (this.files.has(key)) return;
    const entry =
      this.last && this.last.file === file && this.last.endpoint === endpoint
        ? this.last
        : { file, endpoint, records: 0, invalid: 0 };
    this.listFile(key, entry);
    this.kept.issues += fileBytes(file);
    this.dropped.files--;
  }

  private keep(issue: LocatedIssue, location: RecordLocation): void {
    if (this.options.keepBytes !== undefined) {
      if (!this.keeps('issues', issueBytes(issue))) {
        this.dropped.issues++;
        return;
      }
      this.listed(issue.endpoint, location.file);
    }
    const key: IssueKey = [
      this.positions.get(`${issue.endpoint}\u0000${location.file}`) ?? UNKNOWN_FILE,
      location.index ?? -1,
      this.seq++,
    ];
    const keyed = { key, issue };
    this.groups.add(issue, key);
    const first = this.firstOfCodes.get(issue.code);
    if (!first || compareKeyed(keyed, first) < 0) this.firstOfCodes.set(issue.code, keyed);
    const { sample } = this;
    if (sample.length < SAMPLE_SIZE || compareKeyed(keyed, sample[sample.length - 1]!) < 0) {
      let at = sample.length;
      while (at > 0 && compareKeyed(keyed, sample[at - 1]!) < 0) at--;
      sample.splice(at, 0, keyed);
      if (sample.length > SAMPLE_SIZE) sample.pop();
    }
    this.buffer.push(keyed);
    if (!this.options.spill) return;
    this.bufferChars += charsOf(issue);
    if (this.buffer.length >= (this.options.spillAt ?? SPILL_AT) || this.bufferChars >= SPILL_CHARS)
      this.spillBuffer(this.options.spill);
  }

  /** The issues in memory go to the spill as one run in report order; full levels of runs are merged into one. */
  private spillBuffer(spill: IssueSpill): void {
    if (this.buffer.length === 0) return;
    this.runs.push({ handle: spill.write(this.buffer.sort(compareKeyed)), level: 0 });
    this.buffer = [];
    this.bufferChars = 0;
    for (;;) {
      const tail = this.runs.slice(-FAN_IN);
      const level = tail[0]!.level;
      if (tail.length < FAN_IN || tail.some((run) => run.level !== level)) return;
      const merged = spill.write(mergeRuns(tail.map((run) => spill.read(run.handle))));
      this.runs.splice(-FAN_IN, FAN_IN, { handle: merged, level: level + 1 });
    }
  }

  /**
   * A record as read, with its issues (none for a valid one); index null is a file-level problem. Returns
   * whether it is invalid.
   */
  add(endpoint: string, location: RecordLocation, issues: readonly Issue[]): boolean {
    const file = this.file(endpoint, location.file);
    this.push(endpoint, location, issues);
    // A header warning (an unknown column) is said once for the file but is true of every row: --strict
    // faults them all.
    const invalid = this.verdicts.read(endpoint, location, issues);
    if (location.index === null) return invalid;
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

  /** A note about the run, said once; repeated notes add up their counts. */
  note(code: string, message: string, count?: number): void {
    const key = `${code}\u0000${message}`;
    const existing = this.notes.get(key);
    if (existing && count !== undefined) existing.count = (existing.count ?? 0) + count;
    else if (!existing)
      this.notes.set(key, count === undefined ? { code, message } : { code, message, count });
  }

  /** A record that was sent (or could not be): counted per endpoint and decision; problems become issues. */
  addSent(endpoint: string, location: RecordLocation, result: SendResult, requested: boolean): void {
    this.delivery ??= { retried: 0, endpoints: {}, decisions: {} };
    let counts = this.delivery.endpoints[endpoint];
    if (!counts) {
      counts = { sent: 0, accepted: 0, rejected: 0, failed: 0 };
      // In the service's order, not in the order the first answers came in (records are sent side by side).
      const rank = (name: string) =>
        endpointNames.indexOf(name as EndpointName) + 1 || endpointNames.length + 1;
      this.delivery.endpoints = Object.fromEntries(
        [...Object.entries(this.delivery.endpoints), [endpoint, counts] as const].sort(
          ([a], [b]) => rank(a) - rank(b),
        ),
      );
    }
    if (requested) {
      this.summary.sent++;
      counts.sent++;
    }
    if (result.kind === 'accepted') {
      this.summary.accepted++;
      counts.accepted++;
      if (result.decision) countDecision(this.delivery.decisions, result.decision);
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
    return this.verdicts.faulting(issues);
  }

  faults(issues: readonly Issue[]): boolean {
    return this.verdicts.faults(issues);
  }

  /** Every issue in report order (read back from the spill once issues went there), with their count and groups. */
  issues(): ReportIssues {
    const { spill } = this.options;
    if (spill && this.runs.length > 0) this.spillBuffer(spill);
    const spilled = this.runs.map((run) => run.handle);
    const inMemory = spilled.length === 0 ? [...this.buffer].sort(compareKeyed) : [];
    const unkey = ({ issue }: KeyedIssue) => issue;
    return {
      count: this.seq,
      groups: this.groups.result(),
      firstOfCodes: [...this.firstOfCodes.values()].sort(compareKeyed).map(unkey),
      sample: this.sample.map(unkey),
      *[Symbol.iterator]() {
        if (spilled.length === 0) for (const keyed of inMemory) yield keyed.issue;
        else for (const keyed of mergeRuns(spilled.map((handle) => spill!.read(handle)))) yield keyed.issue;
      },
    };
  }

  /**
   * The report, issues ordered by file (in reading order) and record, as people read them. Once
   * issues were spilled, `issues` holds the first SAMPLE_SIZE of them: `issues()` reads them all.
   */
  private droppedNotes(): Note[] {
    const notes: Note[] = [];
    if (this.dropped.issues > 0)
      notes.push({
        code: 'findings-not-kept',
        count: this.dropped.issues,
        message: 'findings past --keep-mb were counted (in the summary) but not kept in this report',
      });
    if (this.dropped.files > 0)
      notes.push({
        code: 'requests-not-listed',
        count: this.dropped.files,
        message:
          'requests past --keep-mb were counted (in the summary) but have no entry of their own in this report',
      });
    return notes;
  }

  build(): Report {
    const issues =
      this.runs.length > 0
        ? this.sample.map(({ issue }) => issue)
        : [...this.buffer].sort(compareKeyed).map(({ issue }) => issue);
    const summary = {
      ...this.summary,
      ...(this.delivery
        ? { unsent: Math.max(0, this.summary.valid - this.summary.sent - this.summary.skipped) }
        : {}),
    };
    return {
      version: 1,
      summary,
      issues,
      files: [...this.files.values()].map((f) => ({ ...f })),
      notes: [...this.notes.values(), ...this.droppedNotes()],
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
