import type { Issue, RecordLocation } from '../core/issue.js';
import { RecordVerdicts } from '../report/recordVerdicts.js';
import type { OrderFlow } from '../report/orderFlow.js';
import type { RunEvent, SendResult } from '../report/runEvents.js';

/** Warnings kept for the question before sending: it is asked about a record or two typed by hand. */
const WARNINGS_KEPT = 20;

export interface LedgerOptions {
  /** Warnings count as errors. */
  strict: boolean;
  /** Where each event goes (the report's fold). */
  emit: (event: RunEvent) => void;
  /** Keep the warnings and these rules' notes for the question before sending (a run that asks one). */
  warnBeforeSending?: ReadonlySet<string>;
}

/**
 * What a run writes its findings to: each becomes an event for the report, and the run keeps
 * the few counts it steers by (--max-errors, the sending progress's total, the exit code, the
 * question before sending) itself, so the report is never read back while the run goes on.
 */
export class RunLedger {
  private readonly verdicts: RecordVerdicts;
  private readonly emit: (event: RunEvent) => void;
  private valid = 0;
  private invalid = 0;
  private readonly noted = new Set<string>();
  private readonly warnings: { key: [number, number, number]; line: string }[] = [];
  /** Each file's place in reading order, as the report orders its issues. */
  private readonly files = new Map<string, number>();
  private readonly warnedNotes = new Map<string, string>();
  private seq = 0;

  constructor(private readonly options: LedgerOptions) {
    this.verdicts = new RecordVerdicts(options.strict);
    this.emit = options.emit;
  }

  /** A record as read, with its issues; index null is a problem of its file. Returns whether it is invalid. */
  add(endpoint: string, location: RecordLocation, issues: readonly Issue[], coverage?: number): boolean {
    this.emit(
      coverage === undefined
        ? { kind: 'read', endpoint, location, issues }
        : { kind: 'read', endpoint, location, issues, coverage },
    );
    const invalid = this.verdicts.read(endpoint, location, issues);
    if (location.index !== null) {
      if (invalid) this.invalid++;
      else this.valid++;
    }
    this.keepWarnings(endpoint, location, issues);
    return invalid;
  }

  /** Issues the flow rules found about a record already read; returns whether they fault it. */
  addLater(endpoint: string, location: RecordLocation, issues: readonly Issue[], wasValid: boolean): boolean {
    this.emit({ kind: 'judged', endpoint, location, issues, wasValid });
    const invalid = this.verdicts.faults(issues);
    if (invalid && wasValid && location.index !== null) {
      this.valid--;
      this.invalid++;
    }
    this.keepWarnings(endpoint, location, issues);
    return invalid;
  }

  addSent(endpoint: string, location: RecordLocation, result: SendResult, requested: boolean): void {
    this.emit({ kind: 'sent', endpoint, location, result, requested });
    if (result.kind !== 'accepted') this.noted.add(result.issue.code);
  }

  /**
   * One order's flow, as the flow rules saw it (the report's flow coverage), in place of the one counted
   * earlier for it, if any.
   */
  addFlow(flow: OrderFlow, replaces?: OrderFlow): void {
    this.emit(replaces ? { kind: 'order', flow, replaces } : { kind: 'order', flow });
  }

  addSkipped(): void {
    this.emit({ kind: 'skipped' });
  }

  addRetries(count: number): void {
    this.emit({ kind: 'retried', count });
  }

  note(code: string, message: string, count?: number): void {
    this.emit(count === undefined ? { kind: 'note', code, message } : { kind: 'note', code, message, count });
    this.noted.add(code);
    if (this.options.warnBeforeSending?.has(code) && !this.warnedNotes.has(`${code}\u0000${message}`)) {
      this.warnedNotes.set(`${code}\u0000${message}`, `${code}: ${message}`);
    }
  }

  /** Whether a note, or the issue of a record that could not be sent, had this code. */
  saw(code: string): boolean {
    return this.noted.has(code);
  }

  faulting(issues: readonly Issue[]): Issue[] {
    return this.verdicts.faulting(issues);
  }

  faults(issues: readonly Issue[]): boolean {
    return this.verdicts.faults(issues);
  }

  get validRecords(): number {
    return this.valid;
  }

  get invalidRecords(): number {
    return this.invalid;
  }

  /**
   * The records' warnings so far (by record), then the notes of rules that warn before sending, as `code:
   * message` lines.
   */
  warningsBeforeSending(): string[] {
    const byRecord = [...this.warnings]
      .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2])
      .map((warning) => warning.line);
    return [...byRecord, ...this.warnedNotes.values()];
  }

  private keepWarnings(endpoint: string, location: RecordLocation, issues: readonly Issue[]): void {
    if (!this.options.warnBeforeSending || this.options.strict) return;
    const file = `${endpoint}\u0000${location.file}`;
    if (!this.files.has(file)) this.files.set(file, this.files.size);
    for (const issue of issues) {
      if (issue.severity !== 'warning' || this.warnings.length >= WARNINGS_KEPT) continue;
      const line = `${issue.code}${issue.path ? ` ${issue.path}` : ''}: ${issue.message}`;
      this.warnings.push({ key: [this.files.get(file)!, location.index ?? -1, this.seq++], line });
    }
  }
}
