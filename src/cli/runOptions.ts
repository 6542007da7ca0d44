import { tmpdir } from 'node:os';
import type { ChalkInstance } from 'chalk';
import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import { terminalLines } from '../core/terminalText.js';
import { maskUrlCredentials } from '../core/urlCredentials.js';
import type { ExitCode } from '../core/exitCodes.js';
import type { FlowRule } from '../flow/rules/rule.js';
import {
  reportChunks,
  reportFormats,
  type FormatOptions,
  type ReportFormat,
} from '../report/formatReport.js';
import { IssueSpillFile } from '../report/issueSpillFile.js';
import { rememberOnThread } from '../fast/threadedState.js';
import { scratchOf } from '../state/openState.js';
import { checkAndSend, type RunResult } from '../run/checkAndSend.js';
import { parseShard } from '../run/shard.js';
import type { Shard } from '../state/runState.js';
import type { RunInput } from '../run/checkRecords.js';
import type { Outcome } from '../send/sender.js';
import { parseBaseUrl } from '../send/serviceUrl.js';
import { describeHalt } from '../send/setupFailure.js';
import { keyInEnvironment, loadApiKey, redactor } from './apiKey.js';
import { colorFor } from './color.js';
import type { CliIo } from './io.js';
import { startProgress } from './progress.js';
import { confirmSending, type Question } from './prompt.js';
import { chooseState } from './stateChoice.js';
import { inputBytes, inputMeter } from '../decode/inputMeter.js';
import { redactingIo } from './redactingIo.js';
import { writeChunks } from './writeChunks.js';
import { ciOutputs } from './ciOutputs.js';
import { htmlChunks } from '../report/formatHtml.js';
import { writeHtmlReport } from './htmlReportFile.js';
import { refuseUnsafeOutputs, type ReadPlaces } from './outputPaths.js';
import { rejectsTargets } from '../run/rejectsTargets.js';
import { TRANSFORM_TIMEOUT_MS } from './transformModule.js';

/** The flags every checking and sending command shares (endpoint commands and backfill). */
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

function wholeNumber(min: number) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < min)
      throw new InvalidArgumentError(`give a whole number of at least ${min}`);
    return value;
  };
}

/** A rate: any positive number of requests per second (0.5 is one every two seconds). */
function positiveRate(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError('give a positive number of requests per second, e.g. 10 or 0.5');
  return value;
}

function shardOption(text: string): Shard {
  const shard = parseShard(text);
  if (typeof shard === 'string') throw new InvalidArgumentError(shard);
  return shard;
}

export function addRunOptions(command: Command): Command {
  return command
    .option('--dry-run', 'check and report; send nothing (no key or URL needed)')
    .addOption(
      new Option('--format <format>', 'report format on standard output')
        .choices(reportFormats)
        .default('pretty'),
    )
    .option('--strict', 'count warnings as errors')
    .option('--max-errors <n>', 'stop after this many invalid records', wholeNumber(1))
    .option(
      '--state <dir|url>',
      "the state: a folder (SQLite, default .collect) or a postgres:// URL shared by a team, CI and shards (default: COLLECT_STATE); a dry run reads one only when given it (or --base-url's) and writes one only with --state",
    )
    .option('--no-state', 'use no state folder: check this run alone, remember nothing')
    .option('--base-url <url>', 'the service (default: COLLECT_BASE_URL); https, or http to loopback only')
    .option('--api-key-file <path>', 'read the API key from this file (default: COLLECT_API_KEY)')
    .option(
      '--timeout <ms>',
      'abandon an attempt this long after it starts, headers and body together',
      wholeNumber(1),
      2000,
    )
    .option('--concurrency <n>', 'requests in flight at once', wholeNumber(1), 8)
    .option(
      '--rate <n>',
      'at most this many requests per second (fractions too: 0.5 is one every 2 s)',
      positiveRate,
    )
    .option(
      '--retries <n>',
      'retries of a request on timeouts, connection errors, 408, 429 and 5xx',
      wholeNumber(0),
      5,
    )
    .option(
      '--rejects <path>',
      'write invalid and rejected records here, in their input format, with the reasons',
    )
    .option('--results <file>', "write one JSON line per sent record: status code and the service's answer")
    .option(
      '--report-html <file>',
      'also write the report as one self-contained HTML page (coverage, issue groups, timeline) here; overwrites only a report collect wrote',
    )
    .option(
      '--lock-wait <seconds>',
      'wait this long for another run that holds the state (default: refuse at once, exit 2)',
      wholeNumber(0),
      0,
    )
    .option(
      '--shard <i/n>',
      'take only the orders whose id hashes to shard I of N (0-based; every record of an order lands in one shard)',
      shardOption,
    )
    .option(
      '--resend',
      'send again what an earlier run already sent (the state is otherwise the journal of a re-run)',
    )
    .option(
      '--transform <module>',
      'a JavaScript module whose default export turns each record into a record, a list of them, or null (for what a mapping cannot say)',
    )
    .option(
      '--transform-timeout <ms>',
      'a --transform call that has not settled this long after it started is an error of its record',
      wholeNumber(1),
      TRANSFORM_TIMEOUT_MS,
    )
    .option('--all-issues', 'the pretty report lists every issue (past 20 it counts them by code and field)')
    .option(
      '--max-record-bytes <n>',
      'report records larger than this instead of reading them',
      wholeNumber(1),
      1024 * 1024,
    );
}

/** This run's command line, stored in the lock and shown to another run that finds the state locked (no flag carries the key; a state URL's password is masked). */
const commandLine = () => ['collect', ...process.argv.slice(2)].map(maskUrlCredentials).join(' ');

/** The Ctrl-C notice: what happens next, and how to quit at once. */
const STOPPING =
  '\ncollect: stopping: the requests in flight finish, then the summary (Ctrl-C again to quit at once)\n';

/** What a command may add to a run: one record typed by hand asks before sending, shows no progress and prints its own summary. */
export interface RunExtras {
  /** Asked (prompt.ts) before the first record is sent, with the warnings the rules say before sending. */
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
  /** The report's pieces in place of the run's own (a command that adds a section of its own, `collect chargebacks`). */
  report?: (result: RunResult, color: ChalkInstance, options: FormatOptions) => Iterable<string>;
}

const noProgress = { tick: () => {}, stop: () => {} };

/**
 * Runs the verb for a command's inputs and flags: works out the service and the key, runs
 * checkAndSend, prints the report; returns the exit code.
 */
export async function runWithFlags(
  inputs: RunInput[],
  flags: RunFlags,
  rawIo: CliIo,
  extra: RunExtras = {},
): Promise<ExitCode> {
  const ownFiles = [flags.transform, flags.apiKeyFile].filter((file) => file !== undefined);
  refuseUnsafeOutputs(flags, rejectsTargets(inputs), {
    ...extra.reads,
    files: [...(extra.reads?.files ?? []), ...ownFiles],
  });
  const sending = flags.dryRun !== true;
  if (
    inputs.some((input) => input.spec.name === '-' && input.spec.records === undefined) &&
    rawIo.stdin.isTTY === true
  ) {
    throw new UsageError(
      'no input: name the files to read, or pipe records into standard input',
      'e.g. collect order orders.csv --dry-run',
    );
  }
  const baseUrl = flags.baseUrl ?? (rawIo.env.COLLECT_BASE_URL || undefined);
  if (sending && !baseUrl)
    throw new UsageError(
      'no service to send to: give --base-url URL or set COLLECT_BASE_URL',
      'or add --dry-run to check without sending',
    );
  const base = baseUrl === undefined ? undefined : parseBaseUrl(baseUrl);
  const apiKey = sending ? loadApiKey(rawIo, flags.apiKeyFile) : undefined;
  // A dry run needs no key, but one in the environment is hidden all the same (a transform may quote it).
  const secret = apiKey ?? keyInEnvironment(rawIo.env);
  const redact = redactor(secret);
  const io = secret ? redactingIo(rawIo, redact) : rawIo;
  const service = sending && baseUrl && base && apiKey ? { baseUrl, base, apiKey } : undefined;
  // Before any worker thread starts (heapGrowth.ts).
  if (!sending) rawIo.onCheckOnly?.();
  // Files' sizes give a dry run's progress its total before the records are counted.
  const size = await inputBytes(inputs.map((input) => input.spec));
  const state = chooseState({
    ...(flags.state === undefined ? {} : { state: flags.state }),
    envState: rawIo.env.COLLECT_STATE ?? '',
    sending,
    ...(baseUrl === undefined ? {} : { baseUrl }),
  });
  const { stateDir } = state;
  // The report's issues past what it keeps in memory wait on disk until the report is written, in a folder
  // of this run's own where the next run removes it if this one is killed (as the run index's).
  const spillScratch = scratchOf(stateDir, state.readOnly, tmpdir());
  const issueSpill = new IssueSpillFile(() => spillScratch.dir());
  const memoryRecords = memoryRecordsOf(rawIo.env.COLLECT_MEMORY_RECORDS);
  const { ask } = extra;
  try {
    const result = await checkAndSend(
      {
        inputs,
        ...(extra.rules ? { rules: extra.rules } : {}),
        stateDir,
        remember: state.remember,
        ...(flags.shard ? { shard: flags.shard } : {}),
        lockWaitMs: flags.lockWait * 1000,
        command: commandLine(),
        strict: flags.strict === true,
        timeoutMs: flags.timeout,
        concurrency: flags.concurrency,
        retries: flags.retries,
        resend: flags.resend === true,
        maxRecordBytes: flags.maxRecordBytes,
        ...(service ? { service } : baseUrl === undefined ? {} : { dryRunBaseUrl: baseUrl }),
        ...(flags.maxErrors === undefined ? {} : { maxErrors: flags.maxErrors }),
        ...(flags.rate === undefined ? {} : { rate: flags.rate }),
        ...(flags.rejects === undefined ? {} : { rejects: flags.rejects }),
        ...(flags.results === undefined ? {} : { results: flags.results }),
      },
      {
        stdin: io.stdin,
        now: io.now,
        scratchDir: tmpdir(),
        redact,
        issueSpill,
        ...(memoryRecords === undefined ? {} : { memoryRecords }),
        progress: (label, total) =>
          extra.noProgress
            ? noProgress
            : startProgress(
                io,
                label,
                total,
                label === 'checked' && size !== undefined
                  ? { total: size, read: () => inputMeter.bytes }
                  : undefined,
              ),
        onInterrupt: (handler) =>
          io.onInterrupt(() => {
            io.stderr.write(STOPPING);
            handler();
          }),
        ...(ask ? { confirm: (warnings) => confirmSending(io, ask(warnings)) } : {}),
        ...(extra.onSent ? { onSent: extra.onSent } : {}),
        rememberOnThread,
      },
    );
    const html = { ...(result.insights ? { insights: result.insights } : {}), title: commandLine() };
    if (flags.reportHtml !== undefined)
      writeHtmlReport(flags.reportHtml, htmlChunks(result.report, result.issues, html), redact);
    if (extra.show) {
      extra.show(result, io);
      return result.exitCode;
    }
    const color = colorFor(io.stdout, io.env);
    const options = {
      allIssues: flags.allIssues === true,
      exitCode: result.exitCode,
      ...html,
      ...ciOutputs(io, redact),
    };
    await writeChunks(
      io.stdout,
      extra.report
        ? extra.report(result, color, options)
        : reportChunks(result.report, result.issues, flags.format, color, options),
    );
    if (result.keyRefused) {
      io.stderr.write(
        'collect: the service refused the API key; nothing more was sent\n  fix: check COLLECT_API_KEY or --api-key-file, and --base-url\n',
      );
    }
    if (result.halted) io.stderr.write(terminalLines(describeHalt(result.halted)));
    if (result.stateFailure)
      io.stderr.write(
        terminalLines(
          `collect: ${result.stateFailure.message}\n${result.stateFailure.hint ? `  fix: ${result.stateFailure.hint}\n` : ''}`,
        ),
      );
    return result.exitCode;
  } finally {
    issueSpill.close();
    spillScratch.close();
  }
}

/** COLLECT_MEMORY_RECORDS: how many records and issues a run holds before spilling them to its scratch folder. */
function memoryRecordsOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new UsageError(
      `COLLECT_MEMORY_RECORDS=${JSON.stringify(value)} is not a whole number of at least 1`,
      'unset it for the defaults (50,000 records, 20,000 issues), or give e.g. COLLECT_MEMORY_RECORDS=10000',
    );
  return count;
}
