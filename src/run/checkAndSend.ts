import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { runExitCode, type ExitCode } from '../core/exitCodes.js';
import { ReportBuilder, reportIsFaulty, type Report } from '../report/report.js';
import type { IssueSpill, ReportIssues } from '../report/reportIssues.js';
import { flowRules, type FlowRule } from '../flow/rules/index.js';
import { realClock } from '../send/clock.js';
import { RejectsWriter, ResultsWriter, type Redact } from '../send/outputFiles.js';
import { Sender, type Outcome } from '../send/sender.js';
import type { SetupFailure } from '../send/setupFailure.js';
import { RunIndex } from './runIndex/runIndex.js';
import { RunScratch } from '../state/runScratch.js';
import type { Shard } from '../state/stateLock.js';
import { isPostgresUrl, openState } from '../state/openState.js';
import { StateError } from '../state/stateErrors.js';
import { WalCheckpoint } from '../state/walCheckpoint.js';
import { checkRecords, type RunInput } from './checkRecords.js';
import { shardFilter } from './shard.js';
import { DurableOutcomes } from './durableOutcomes.js';
import { outcomeRecorder, sendingSink, type SendContext } from './sendingSink.js';

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

/** A progress display: one tick per record. */
export interface Progress {
  tick: (failed?: boolean) => void;
  stop: () => void;
}

/** What the run touches of the world, passed in by the CLI (or a test). */
export interface RunDeps {
  stdin: Readable;
  now: () => Date;
  /** The temporary directory: a run without a state folder (or with a PostgreSQL one) keeps its throwaway files in its user's folder there. */
  scratchDir: string;
  redact: Redact;
  /** Where the report puts its issues past what it keeps in memory (issueSpillFile.ts); without it every issue stays in memory. */
  issueSpill?: IssueSpill;
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
  /** The state could not keep the answers any more (a database that stayed away, a lock taken over, a full disk): sending stopped. */
  stateFailure?: StateError;
}

/** In a run that sends, a failure to keep answers durable is the run's outcome (its summary still printed); any other is thrown on. */
function stateFailureOf(cause: unknown, sending: boolean): StateError {
  if (sending && cause instanceof StateError) return cause;
  throw cause;
}

/** The records' warnings so far and the notes of rules that warn before sending, as `code: message` lines. */
function warningsBeforeSending(builder: ReportBuilder, rules: readonly FlowRule[]): string[] {
  const warnedRules = new Set(rules.filter((rule) => rule.warnBeforeSending).map((rule) => rule.code));
  const report = builder.build();
  const warnings = report.issues.filter((issue) => issue.severity === 'warning').map((issue) => `${issue.code}${issue.path ? ` ${issue.path}` : ''}: ${issue.message}`);
  return [...warnings, ...report.notes.filter((note) => warnedRules.has(note.code)).map((note) => `${note.code}: ${note.message}`)];
}

/**
 * The one verb of every checking and sending command: reads and checks every record (schema,
 * then flow rules with the state), sends the valid ones in flow order unless it is a dry run,
 * writes --rejects and --results, and returns the report with its exit code.
 */
export async function checkAndSend(request: RunRequest, deps: RunDeps): Promise<RunResult> {
  const { service } = request;
  const rules = request.rules ?? flowRules;
  // undici is loaded only by a run that sends (a dry run starts without it), before anything is opened or locked.
  const http = service ? await import('../send/httpClient.js') : undefined;
  const remember = !service && request.remember === true && request.stateDir !== null;
  // A dry run that does not remember only reads: it creates no state and spills nothing into one.
  const readOnly = !service && !remember;
  // A run that writes the state holds it alone, from before its first read to its last write.
  const locking = request.stateDir !== null && (service !== undefined || remember);
  const state = await openState(request.stateDir, service?.baseUrl ?? request.dryRunBaseUrl, { locking, readOnly, ...(request.shard ? { shard: request.shard } : {}) });
  let lock: { release(): void | Promise<void> } | undefined;
  try {
    if (locking) {
      lock = await state.lock({
        where: state.location ?? String(request.stateDir), waitMs: request.lockWaitMs ?? 0, command: request.command ?? 'collect',
        ...(request.shard ? { shard: request.shard } : {}),
      });
    }
  } catch (cause) {
    await state.close();
    throw cause;
  }
  // Throwaway files in a folder of this run's own, where the next run removes them if this one is killed; a read-only dry run's in the temporary directory.
  const scratch = request.stateDir === null || readOnly || isPostgresUrl(request.stateDir) ? RunScratch.inTemp(deps.scratchDir) : RunScratch.in(join(request.stateDir, 'tmp'));
  const runIndex = new RunIndex(() => scratch.dir());
  const builder = new ReportBuilder({ strict: request.strict, ...(deps.issueSpill ? { spill: deps.issueSpill } : {}) });
  const rejects = request.rejects === undefined ? undefined : new RejectsWriter(request.rejects, request.inputs.map((i) => i.spec), deps.redact);
  const results = request.results === undefined ? undefined : new ResultsWriter(request.results, deps.redact);
  const durable = service && request.stateDir !== null ? new DurableOutcomes(state, deps.now, request.concurrency) : undefined;
  // A sending run's commits never wait for a checkpoint: a worker makes them (a SQLite state).
  const checkpoint = durable && state.location !== null && !isPostgresUrl(request.stateDir) ? WalCheckpoint.start(state.database, state.location) : undefined;
  const client = service && http ? http.createHttpClient(service.base, service.apiKey, request.concurrency, request.timeoutMs) : undefined;
  const parts = { builder, ...(rejects ? { rejects } : {}), ...(results ? { results } : {}), ...(durable ? { commit: durable.commit } : {}) };
  const decisions = new Map<string, string>();
  const checking = deps.progress('checked');
  let sending: Progress | undefined;
  const record = outcomeRecorder(parts, decisions);
  const sender = client
    ? new Sender<SendContext>({
        client, concurrency: request.concurrency, retries: request.retries, timeoutMs: request.timeoutMs, clock: realClock, random: Math.random,
        onOutcome: (job, outcome) => {
          const committed = record(job, outcome);
          deps.onSent?.(outcome);
          // Sending starts once every record is checked: the count of valid records is the total.
          if (!sending) {
            checking.stop();
            sending = deps.progress('sent', builder.validRecords);
          }
          sending.tick(outcome.kind !== 'accepted');
          return committed;
        },
        ...(request.rate === undefined ? {} : { rate: request.rate }),
        ...(durable ? { onStall: durable.onStall } : {}),
      })
    : undefined;
  const sink = sender || rejects
    ? sendingSink(parts, sender, decisions, { rules, resend: request.resend, ...(deps.confirm ? { confirm: () => deps.confirm!(warningsBeforeSending(builder, rules)) } : {}) })
    : undefined;
  const shard = request.shard ? shardFilter(request.shard) : undefined;
  let interrupted = false;
  let stateFailure: StateError | undefined;
  const aborted = new AbortController();
  const stopListening = deps.onInterrupt(() => {
    interrupted = true;
    aborted.abort();
  });
  try {
    await checkRecords({
      inputs: request.inputs, rules, stdin: deps.stdin, now: deps.now(), builder, state, runIndex, onRecord: checking.tick,
      remember, limits: { maxRecordBytes: request.maxRecordBytes },
      ...(request.maxErrors === undefined ? {} : { maxErrors: request.maxErrors }), ...(sink ? { sink } : {}),
      shouldStop: () => interrupted || state.failed, signal: aborted.signal, ...(shard ? { keep: shard.keep } : {}),
    });
    if (shard) builder.note('shard', `shard ${shard.label}: this run took the orders whose id hashes to it (${shard.kept()} records; ${shard.passed()} of other shards passed over)`);
    await sender?.drain();
    // A commit that failed with no slot waiting for it: the run must not end as if its answers were kept.
    durable?.flush();
    durable?.throwIfFailed();
  } catch (cause) {
    // The answers could not be kept (through a stopped sender, or found once it drained): the summary so far is still the report.
    stateFailure = stateFailureOf(cause, durable !== undefined);
  } finally {
    stopListening();
    checking.stop();
    sending?.stop();
    durable?.flush();
    if (sender) builder.addRetries(sender.retried);
    runIndex.close();
    scratch.close();
    try {
      await checkpoint?.stop();
      // A remote state's last group must be committed before the lock goes to another run.
      await state.durable().catch((cause: unknown) => void (stateFailure ??= stateFailureOf(cause, durable !== undefined)));
    } finally {
      await lock?.release();
      await state.close();
    }
    await client?.close();
    await rejects?.close();
    await results?.close();
  }
  if (stateFailure) builder.note('state-failed', `stopped sending: ${stateFailure.message}; ${stateFailure.hint ?? ''}`);
  if (sender?.halted) builder.note('stopped', `stopped sending: ${sender.halted.summary}; ${sender.halted.hint}`);
  // Stopped while the last requests drained: the report must still say the run is unfinished.
  if (interrupted && !builder.hasNote('interrupted')) builder.note('interrupted', 'interrupted: the requests in flight finished and were saved; run the same command again to go on');
  const report = builder.build();
  const issues = builder.issues();
  const keyRefused = issues.groups.some((group) => group.code === 'key-refused');
  const deliveryFailed = keyRefused || sender?.halted !== undefined || issues.groups.some((group) => group.code === 'delivery-failed');
  return {
    report, issues, interrupted, keyRefused, declined: sink?.declined === true, ...(sender?.halted ? { halted: sender.halted } : {}), ...(stateFailure ? { stateFailure } : {}),
    // A record counts as done only once the service accepted it: one it rejected earlier, unchanged, is not.
    exitCode: runExitCode({ interrupted, stateFailed: stateFailure !== undefined, deliveryFailed, faulty: reportIsFaulty(report) || sink?.declined === true || builder.hasNote('rejected-before') }),
  };
}
