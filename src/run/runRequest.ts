import type { Readable } from 'node:stream';
import type { ExitCode } from '../core/exitCodes.js';
import type { FlowRule } from '../flow/rules/rule.js';
import type { Insights } from '../report/insights.js';
import type { Report } from '../report/report.js';
import type { IssueSpill, ReportIssues } from '../report/reportIssues.js';
import type { Redact } from '../send/outputFiles.js';
import type { Outcome } from '../send/sender.js';
import type { SetupFailure } from '../send/setupFailure.js';
import type { StateError } from '../state/stateErrors.js';
import type { RunState, Shard } from '../state/runState.js';
import type { RunInput } from './checkOptions.js';

/** The service a run sends to; absent for a dry run. */
export interface Service {
  /** The base URL as given: it names the state's namespace. */
  baseUrl: string;
  base: URL;
  apiKey: string;
}

/** What to do: the records, and how to check and send them. */
export interface RunRequest {
  inputs: readonly RunInput[];
  /** The flow rules to judge by (default: every rule of docs/flow-rules.md). */
  rules?: readonly FlowRule[];
  /** Absent: a dry run (nothing sent). */
  service?: Service;
  /** The base URL of a dry run, whose state it reads (its own namespace when absent). */
  dryRunBaseUrl?: string;
  /** The state folder; null for none (`--no-state`, or a dry run pointed at none). */
  stateDir: string | null;
  /** A dry run records the records it found valid in the state (an explicit `--state DIR`). */
  remember?: boolean;
  /** How long to wait for another run that holds the state's lock (0: refuse at once). */
  lockWaitMs?: number;
  /** The command line, named to another run that finds the state locked. */
  command?: string;
  /** This run takes only the orders of one shard. */
  shard?: Shard;
  strict: boolean;
  maxErrors?: number;
  timeoutMs: number;
  concurrency: number;
  rate?: number;
  retries: number;
  resend: boolean;
  maxRecordBytes: number;
  rejects?: string;
  results?: string;
}

/** A progress display: one tick per record (a failed one counted apart), stopped once. */
export interface Progress {
  tick: (failed?: boolean) => void;
  stop: () => void;
}

/** What the run touches of the world, passed in by the CLI (or a test). */
export interface RunDeps {
  stdin: Readable;
  now: () => Date;
  /** The temporary directory: a run whose state keeps no folder of its own keeps its throwaway files there. */
  scratchDir: string;
  redact: Redact;
  /**
   * Where the report puts its issues past what it keeps in memory (issueSpillFile.ts); without it every issue
   * stays in memory.
   */
  issueSpill?: IssueSpill;
  /**
   * Records (and issues) a run holds in memory before its run index and its report spill to files; defaults
   * 50,000 and 20,000.
   */
  memoryRecords?: number;
  progress: (label: 'checked' | 'sent', total?: number) => Progress;
  /** Calls the handler on Ctrl-C or SIGTERM; returns the way to stop listening. */
  onInterrupt: (handler: () => void) => () => void;
  /**
   * Asked once before the first record is sent, with the records' warnings so far and what the flow rules could not
   * check about them that a person must hear before sending (rules marked warnBeforeSending); false: nothing is sent.
   */
  confirm?: (warnings: readonly string[]) => Promise<boolean>;
  /** Called with each record's outcome of sending (one record typed by hand shows its answer). */
  onSent?: (outcome: Outcome) => void;
  /** A dry run that remembers writes its state through this (the writer thread, fast/threadedState.ts, handed in). */
  rememberOnThread?: (state: RunState) => RunState;
}

export interface RunResult {
  /** Its `issues` are the first few only when there were many: `issues` has them all. */
  report: Report;
  /** Every issue, read back in report order (from `issueSpill` when they went there). */
  issues: ReportIssues;
  exitCode: ExitCode;
  interrupted: boolean;
  /** The service refused the key: nothing more was sent. */
  keyRefused: boolean;
  /** `confirm` said no. */
  declined: boolean;
  /** What stopped sending for the whole run (unreachable, TLS, redirect, wrong URL, a long Retry-After). */
  halted?: SetupFailure;
  /**
   * The state could not keep the answers any more (a database that stayed away, a lock taken over, a full
   * disk): sending stopped.
   */
  stateFailure?: StateError;
  /** Field and flow coverage, answers per minute: what the HTML report shows besides the report (insights.ts). */
  insights?: Insights;
}
