import { tmpdir } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import type { ColumnMap } from '../convert/csvColumns.js';
import { formatReport, reportFormats, type ReportFormat } from '../report/formatReport.js';
import { ReportBuilder, reportExitCode } from '../report/report.js';
import { checkRun, type RunInput } from '../run/checkRun.js';
import { RunIndex } from '../state/runIndex.js';
import { StateStore } from '../state/stateStore.js';
import { colorFor } from './color.js';
import type { CliIo } from './io.js';
import { startProgress } from './progress.js';

/** The flags every checking command shares (endpoint commands and backfill). */
export interface RunFlags {
  dryRun?: boolean;
  format: ReportFormat;
  strict?: boolean;
  maxErrors?: number;
  /** The state folder, or false for --no-state. */
  state: string | false;
  baseUrl?: string;
}

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('give a whole number of at least 1');
  return value;
}

export function addRunOptions(command: Command): Command {
  return command
    .option('--dry-run', 'check and report; send nothing')
    .addOption(new Option('--format <format>', 'report format on standard output').choices(reportFormats).default('pretty'))
    .option('--strict', 'count warnings as errors')
    .option('--max-errors <n>', 'stop after this many invalid records', positiveInteger)
    .option('--state <dir>', 'the state folder: what earlier runs recorded', '.collect')
    .option('--no-state', 'use no state folder: check this run alone, remember nothing')
    .option('--base-url <url>', 'the service (or COLLECT_BASE_URL); with --dry-run, its state is read, not written');
}

/** Runs the checks of a command over its inputs and writes the report; returns the exit code. */
export async function executeRun(inputs: RunInput[], flags: RunFlags, io: CliIo, map?: ColumnMap): Promise<number> {
  if (!flags.dryRun) throw new UsageError('sending is not available in this version of collect', 'add --dry-run to check the records');
  if (inputs.some((input) => input.spec.name === '-') && io.stdin.isTTY === true) {
    throw new UsageError('no input: name the files to read, or pipe records into standard input', 'e.g. collect order orders.csv --dry-run');
  }
  const baseUrl = flags.baseUrl ?? (io.env.COLLECT_BASE_URL || undefined);
  const state = StateStore.open(flags.state === false ? null : flags.state, baseUrl);
  const runIndex = RunIndex.create(flags.state === false ? tmpdir() : flags.state);
  const builder = new ReportBuilder({ strict: flags.strict === true });
  const progress = startProgress(io, 'checked');
  try {
    await checkRun({
      inputs, stdin: io.stdin, now: io.now(), builder, state, runIndex,
      remember: baseUrl === undefined, onRecord: progress.tick,
      ...(map ? { map } : {}), ...(flags.maxErrors === undefined ? {} : { maxErrors: flags.maxErrors }),
    });
  } finally {
    progress.stop();
    runIndex.close();
    state.close();
  }
  const report = builder.build();
  io.stdout.write(formatReport(report, flags.format, colorFor(io.stdout, io.env)));
  return reportExitCode(report);
}
