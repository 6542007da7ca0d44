import { tmpdir } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import type { ColumnMap } from '../convert/csvColumns.js';
import { formatReport, reportFormats, type ReportFormat } from '../report/formatReport.js';
import { ReportBuilder, reportExitCode, type Report } from '../report/report.js';
import { checkRun, type RunInput } from '../run/checkRun.js';
import { deliverySink, outcomeHandler, type SendContext } from '../run/deliverySink.js';
import { realClock } from '../send/clock.js';
import { createHttpClient } from '../send/httpClient.js';
import { RejectsWriter, ResultsWriter } from '../send/outputFiles.js';
import { Sender } from '../send/sender.js';
import { parseBaseUrl } from '../send/serviceUrl.js';
import { SpillingRunIndex } from '../state/memoryRunIndex.js';
import { StateRecorder } from '../state/stateRecorder.js';
import { StateStore } from '../state/stateStore.js';
import { loadApiKey, redactor } from './apiKey.js';
import { colorFor } from './color.js';
import type { CliIo } from './io.js';
import { startProgress, type Progress } from './progress.js';
import { redactingIo } from './redactingIo.js';

/** The flags every checking and sending command shares (endpoint commands and backfill). */
export interface RunFlags {
  dryRun?: boolean;
  format: ReportFormat;
  strict?: boolean;
  maxErrors?: number;
  /** The state folder, or false for --no-state. */
  state: string | false;
  baseUrl?: string;
  apiKeyFile?: string;
  timeout: number;
  concurrency: number;
  rate?: number;
  retries: number;
  rejects?: string;
  results?: string;
  maxRecordBytes: number;
  resend?: boolean;
}

function wholeNumber(min: number) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < min) throw new InvalidArgumentError(`give a whole number of at least ${min}`);
    return value;
  };
}

export function addRunOptions(command: Command): Command {
  return command
    .option('--dry-run', 'check and report; send nothing (no key or URL needed)')
    .addOption(new Option('--format <format>', 'report format on standard output').choices(reportFormats).default('pretty'))
    .option('--strict', 'count warnings as errors')
    .option('--max-errors <n>', 'stop after this many invalid records', wholeNumber(1))
    .option('--state <dir>', 'the state folder: what earlier runs recorded', '.collect')
    .option('--no-state', 'use no state folder: check this run alone, remember nothing')
    .option('--base-url <url>', 'the service (default: COLLECT_BASE_URL); https, or http to loopback only')
    .option('--api-key-file <path>', 'read the API key from this file (default: COLLECT_API_KEY)')
    .option('--timeout <ms>', 'abandon a request after this long', wholeNumber(1), 2000)
    .option('--concurrency <n>', 'requests in flight at once', wholeNumber(1), 8)
    .option('--rate <n>', 'at most this many requests per second', wholeNumber(1))
    .option('--retries <n>', 'retries of a request on timeouts, connection errors, 408, 429 and 5xx', wholeNumber(0), 5)
    .option('--rejects <path>', 'write invalid and rejected records here, in their input format, with the reasons')
    .option('--results <file>', "write one JSON line per sent record: status code and the service's answer")
    .option('--resend', 'send again what an earlier run already sent (the state is otherwise the journal of a re-run)')
    .option('--max-record-bytes <n>', 'report records larger than this instead of reading them', wholeNumber(1), 1024 * 1024);
}

/** What a run's outcome means as an exit code (cli.md): 3 when delivery failed, else 0 or 1. */
function exitCodeOf(report: Report): number {
  if (report.issues.some((issue) => issue.code === 'key-refused' || issue.code === 'delivery-failed')) return 3;
  return reportExitCode(report);
}

/** Checks, and unless --dry-run sends, the records of a command's inputs; writes the report; returns the exit code. */
export async function executeRun(inputs: RunInput[], flags: RunFlags, rawIo: CliIo, map?: ColumnMap): Promise<number> {
  const sending = flags.dryRun !== true;
  if (inputs.some((input) => input.spec.name === '-') && rawIo.stdin.isTTY === true) {
    throw new UsageError('no input: name the files to read, or pipe records into standard input', 'e.g. collect order orders.csv --dry-run');
  }
  const baseUrl = flags.baseUrl ?? (rawIo.env.COLLECT_BASE_URL || undefined);
  if (sending && !baseUrl) throw new UsageError('no service to send to: give --base-url URL or set COLLECT_BASE_URL', 'or add --dry-run to check without sending');
  const base = baseUrl === undefined ? undefined : parseBaseUrl(baseUrl);
  const apiKey = sending ? loadApiKey(rawIo, flags.apiKeyFile) : undefined;
  const redact = redactor(apiKey);
  const io = apiKey ? redactingIo(rawIo, redact) : rawIo;
  const persistent = flags.state !== false;

  const state = StateStore.open(persistent ? (flags.state as string) : null, baseUrl);
  const runIndex = new SpillingRunIndex(persistent ? (flags.state as string) : tmpdir());
  const builder = new ReportBuilder({ strict: flags.strict === true });
  const rejects = flags.rejects === undefined ? undefined : new RejectsWriter(flags.rejects, inputs.map((i) => i.spec), redact);
  const results = flags.results === undefined ? undefined : new ResultsWriter(flags.results, redact);
  const recorder = sending && persistent ? new StateRecorder(state, () => io.now(), flags.concurrency) : undefined;
  const client = sending && base && apiKey ? createHttpClient(base, apiKey, flags.concurrency, flags.timeout) : undefined;
  const parts = { builder, ...(rejects ? { rejects } : {}), ...(results ? { results } : {}), ...(recorder ? { recorder } : {}) };
  const rejectedOrders = new Set<string>();
  const progress = startProgress(io, 'checked');
  let sendProgress: Progress | undefined;
  const handle = outcomeHandler(parts, rejectedOrders);
  const sender = client
    ? new Sender<SendContext>({
        client, concurrency: flags.concurrency, retries: flags.retries, timeoutMs: flags.timeout, clock: realClock, random: Math.random,
        onOutcome: (job, outcome) => {
          const committed = handle(job, outcome);
          // Sending starts once every record is checked: the count of valid records is the total.
          if (!sendProgress) {
            progress.stop();
            sendProgress = startProgress(io, 'sent', builder.validRecords);
          }
          sendProgress.tick(outcome.kind !== 'accepted');
          return committed;
        },
        ...(flags.rate === undefined ? {} : { rate: flags.rate }),
        ...(recorder ? { onStall: () => recorder.flush() } : {}),
      })
    : undefined;
  const sink = sender || rejects ? deliverySink(parts, sender, rejectedOrders, flags.resend === true) : undefined;
  let stopping = false;
  const stopListening = io.onInterrupt(() => {
    stopping = true;
    io.stderr.write('\ncollect: stopping: the requests in flight finish, then the summary (Ctrl-C again to quit at once)\n');
  });
  try {
    await checkRun({
      inputs, stdin: io.stdin, now: io.now(), builder, state, runIndex, onRecord: progress.tick,
      remember: !sending && baseUrl === undefined && persistent, limits: { maxRecordBytes: flags.maxRecordBytes },
      ...(map ? { map } : {}), ...(flags.maxErrors === undefined ? {} : { maxErrors: flags.maxErrors }), ...(sink ? { sink } : {}),
      shouldStop: () => stopping,
    });
    await sender?.drain();
  } finally {
    stopListening();
    progress.stop();
    sendProgress?.stop();
    recorder?.flush();
    if (sender) builder.addRetries(sender.retried);
    runIndex.close();
    state.close();
    await client?.close();
    await rejects?.close();
    await results?.close();
  }
  const report = builder.build();
  io.stdout.write(formatReport(report, flags.format, colorFor(io.stdout, io.env)));
  if (report.issues.some((issue) => issue.code === 'key-refused')) {
    io.stderr.write('collect: the service refused the API key; nothing more was sent\n  fix: check COLLECT_API_KEY or --api-key-file, and --base-url\n');
  }
  return stopping ? 130 : exitCodeOf(report);
}
