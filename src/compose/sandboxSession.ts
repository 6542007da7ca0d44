import { Chalk } from 'chalk';
import { UsageError } from '../core/errors.js';
import { exitCodes } from '../core/exitCodes.js';
import { formatReport, type ReportFormat } from '../report/formatReport.js';
import { reportExitCode, type Report } from '../report/report.js';
import type { GithubOptions } from '../report/formatGithub.js';
import type { Insights } from '../report/insights.js';
import type { Sandbox } from '../sandbox/server.js';
import { keyForms } from './apiKey.js';
import { ciOutputs } from './ciOutputs.js';
import type { CliIo, StopSignal } from '../terminal/io.js';
import { removePidFile } from './pidFile.js';
import { writeReportFile } from './sessionReportFile.js';
import { startWrapped, type WrappedCommand, type WrappedEnd } from './wrappedCommand.js';

export interface SessionPlan {
  /** Where the report goes, and in which format; none when the sandbox does not judge. */
  report?: { file: string; format: ReportFormat };
  /** The application's tests to run against the sandbox: the session ends when they do. */
  command?: readonly string[];
  pidFile?: string;
  /** Hides the upstream's key in the report file (it may echo it). */
  redact?: (text: string) => string;
  /**
   * The upstream's key, with the key the command gets in its place (the sandbox's): the command never
   * gets the upstream's (in COLLECT_API_KEY or any variable holding it), and its output is redacted.
   */
  upstreamKey?: { secret: string; commandKey: string };
  /** --keep-mb, named when orders were let go past it. */
  keepMb?: number;
}

/**
 * The environment without any variable that holds the key, in any form (the command talks to the sandbox,
 * which holds it).
 */
function withoutKey(env: CliIo['env'], secret: string): CliIo['env'] {
  const forms = keyForms(secret);
  return Object.fromEntries(
    Object.entries(env).filter(
      ([, value]) => value === undefined || !forms.some((form) => value.includes(form)),
    ),
  );
}

const reportText = (report: Report, format: ReportFormat, ci: GithubOptions, insights?: Insights) =>
  formatReport(report, format, new Chalk({ level: 0 }), {
    title: 'collect sandbox session',
    session: true,
    requests: true,
    ...ci,
    ...(insights ? { insights } : {}),
  });

function summaryLine(report: Report, file: string): string {
  const { summary } = report;
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return (
    `collect sandbox: ${count(summary.records, 'request')} judged, ${summary.invalid} with errors: ` +
    `${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}; report written to ` +
    `${file}\n`
  );
}

/**
 * The exit code of a session that ran a command: its code if it failed, else the judge's; 130 when collect
 * was interrupted.
 */
function wrappedExitCode(end: WrappedEnd, interrupted: boolean, report: Report | undefined): number {
  if (interrupted) return exitCodes.interrupted;
  if ('failed' in end) return exitCodes.usage;
  if (end.code !== 0) return end.code;
  return report ? reportExitCode(report) : exitCodes.ok;
}

/**
 * Runs a listening sandbox until a stop signal, or, with a command, until that command ends
 * (signals are passed on to it; a second one kills it). The report is written on every way out,
 * an uncaught error included. Returns the exit code.
 */
export async function runSession(io: CliIo, sandbox: Sandbox, plan: SessionPlan): Promise<number> {
  let child: WrappedCommand | undefined;
  // The last words of a process an uncaught error ends: the report as it stands, no pid file, no orphan.
  const stopFatal = io.onFatal(() => {
    child?.signal('SIGKILL');
    if (plan.pidFile !== undefined) removePidFile(plan.pidFile);
    const report = sandbox.finalReport();
    if (report && plan.report)
      writeReportFile(
        plan.report.file,
        shown(reportText(report, plan.report.format, ci, sandbox.insights())),
      );
  });
  const shown = plan.redact ?? ((text: string) => text);
  const ci = ciOutputs(io, shown);
  let signals = 0;
  let stopRequested: (signal: StopSignal) => void = () => {};
  const stopped = new Promise<StopSignal>((resolve) => (stopRequested = resolve));
  const stopListening = io.onStop((signal) => {
    signals++;
    stopRequested(signal);
    // The first is passed on for the command to end as it does on Ctrl-C; a second one ends it at once.
    child?.signal(signals === 1 ? signal : 'SIGKILL');
  });
  try {
    let exitCode: number;
    let failed: string | undefined;
    if (plan.command) {
      const { upstreamKey } = plan;
      child = startWrapped(
        plan.command,
        upstreamKey
          ? {
              ...withoutKey(io.env, upstreamKey.secret),
              COLLECT_API_KEY: upstreamKey.commandKey,
              COLLECT_BASE_URL: sandbox.url,
            }
          : { ...io.env, COLLECT_BASE_URL: sandbox.url },
        upstreamKey ? { secret: upstreamKey.secret, stdout: io.stdout, stderr: io.stderr } : undefined,
      );
      const end = await child.ended;
      if ('failed' in end) failed = end.failed;
      else io.stderr.write(`collect sandbox: ${plan.command.join(' ')} exited with ${end.code}\n`);
      await sandbox.close();
      exitCode = wrappedExitCode(end, signals > 0, sandbox.report());
    } else {
      await stopped;
      await sandbox.close();
      const report = sandbox.report();
      exitCode = report ? reportExitCode(report) : exitCodes.ok;
    }
    const report = sandbox.report();
    if (report && plan.report) {
      writeReportFile(
        plan.report.file,
        shown(reportText(report, plan.report.format, ci, sandbox.insights())),
      );
      io.stderr.write(summaryLine(report, plan.report.file));
    }
    const letGo = sandbox.lettingGo();
    if (letGo > 0)
      io.stderr.write(
        `collect sandbox: ${letGo} order${letGo === 1 ? '' : 's'} let go past --keep-mb ` +
          `${plan.keepMb ?? '?'} (their updates were still accepted)\n`,
      );
    io.stderr.write('collect sandbox: stopped\n');
    if (failed !== undefined)
      throw new UsageError(
        `cannot run ${plan.command![0]}: ${failed}`,
        "check the command after --; for pipes or &&, give sh -c '...'",
      );
    return exitCode;
  } finally {
    stopListening();
    if (plan.pidFile !== undefined) removePidFile(plan.pidFile);
    stopFatal();
  }
}
