import type { ChalkInstance } from 'chalk';
import type { FlowRule } from '../flow/rules/rule.js';
import type { FormatOptions, ReportFormat } from '../report/formatReport.js';
import type { RunResult } from '../run/runRequest.js';
import type { Outcome } from '../send/sender.js';
import type { Shard } from '../state/runState.js';
import type { Question } from '../terminal/confirmSending.js';
import type { CliIo } from '../terminal/io.js';
import type { ReadPlaces } from './outputPaths.js';

/**
 * The flags every checking and sending command shares (endpoint commands and backfill), as parsed
 * (cli/runOptions.ts).
 */
export interface RunFlags {
  dryRun?: boolean;
  format: ReportFormat;
  strict?: boolean;
  maxErrors?: number;
  /** The state folder or postgres:// URL (default: COLLECT_STATE, then .collect), or false for --no-state. */
  state?: string | false;
  baseUrl?: string;
  apiKeyFile?: string;
  timeout: number;
  concurrency: number;
  rate?: number;
  retries: number;
  rejects?: string;
  results?: string;
  /** Also write the report as one HTML page here (beside --format's on standard output). */
  reportHtml?: string;
  maxRecordBytes: number;
  resend?: boolean;
  lockWait: number;
  shard?: Shard;
  allIssues?: boolean;
  transform?: string;
  transformTimeout: number;
}

/**
 * What a command may add to a run: one record typed by hand asks before sending, shows no progress and prints
 * its own summary.
 */
export interface RunExtras {
  /**
   * Asked (terminal/confirmSending.ts) before the first record is sent, with the warnings the rules say
   * before sending.
   */
  ask?: (warnings: readonly string[]) => Question;
  onSent?: (outcome: Outcome) => void;
  /** No progress line (a single record: a line for one record says nothing). */
  noProgress?: boolean;
  /** Prints the outcome in place of the report and the stderr notices; the run's exit code stays. */
  show?: (result: RunResult, io: CliIo) => void;
  /** Files the inputs read besides themselves (a mapping's), for the outputs' checks. */
  reads?: ReadPlaces;
  /** The flow rules to judge by (default: all of them). */
  rules?: readonly FlowRule[];
  /**
   * The report's pieces in place of the run's own (a command that adds a section of its own, `collect
   * chargebacks`).
   */
  report?: (result: RunResult, color: ChalkInstance, options: FormatOptions) => Iterable<string>;
}
