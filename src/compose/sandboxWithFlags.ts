import { closeSync, openSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { outputFileError } from '../core/operationalError.js';
import type { ReportFormat } from '../report/formatReport.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server.js';
import type { UpstreamOptions } from '../sandbox/upstream.js';
import { parseBaseUrl } from '../send/serviceUrl.js';
import { internalErrorText } from '../terminal/internalError.js';
import type { CliIo } from '../terminal/io.js';
import { redactingIo } from '../terminal/redactingIo.js';
import { keyProblem, redactor } from './apiKey.js';
import { refuseUnsafeOutputs } from './outputPaths.js';
import { checkPidFile, writePidFile } from './pidFile.js';
import { runSession } from './sandboxSession.js';
import { startReportFile } from './sessionReportFile.js';

/** The flags of `collect sandbox`, as parsed (cli/commands/sandboxCommand.ts). */
export interface SandboxFlags {
  port: number;
  host: string;
  key?: string;
  record?: string;
  seed: number;
  failRate: number;
  throttleRate: number;
  slowRate: number;
  slowMs: number;
  resetRate: number;
  retryAfter: number;
  rejectAbove: number;
  reviewAbove: number;
  blockedBins: string;
  report?: string;
  reportFormat?: ReportFormat;
  strict?: boolean;
  upstream?: string;
  upstreamTimeout: number;
  allowHost?: string[];
  keepMb: number;
  pidFile?: string;
}

/** The key a command run with --upstream gets in COLLECT_API_KEY when no --key says one: the sandbox takes any. */
const SANDBOX_KEY = 'collect-sandbox-key';

/**
 * The report's format: as given, else from the file's extension (report.xml: junit, report.html: html), else
 * pretty.
 */
function formatOf(file: string, given: ReportFormat | undefined): ReportFormat {
  if (given) return given;
  const extension = file.toLowerCase().split('.').pop();
  const byExtension: Record<string, ReportFormat> = { xml: 'junit', json: 'json', html: 'html', htm: 'html' };
  return byExtension[extension ?? ''] ?? 'pretty';
}

/** The real service to forward to, with the key of COLLECT_API_KEY (a flag would leak it into shell history). */
function upstreamOf(io: CliIo, flags: SandboxFlags): UpstreamOptions | undefined {
  if (flags.upstream === undefined) return undefined;
  let base: URL;
  try {
    base = parseBaseUrl(flags.upstream);
  } catch (cause) {
    if (cause instanceof UsageError)
      throw new UsageError(
        cause.message.replace('--base-url', '--upstream'),
        cause.hint?.replace('--base-url', '--upstream'),
      );
    throw cause;
  }
  const key = io.env.COLLECT_API_KEY?.trim();
  if (!key)
    throw new UsageError(
      '--upstream needs the API key of that service: set COLLECT_API_KEY',
      "the sandbox sends it in place of the application's own Authorization header",
    );
  const problem = keyProblem(key);
  if (problem)
    throw new UsageError(`COLLECT_API_KEY ${problem}`, 'give the API key exactly as the service issued it');
  return { base, key, redact: redactor(key), timeoutMs: flags.upstreamTimeout };
}

/**
 * Listens, or says why it cannot: a port that is taken or an address that is not this machine's is the user's
 * to fix.
 */
async function listen(options: SandboxOptions): Promise<Sandbox> {
  try {
    return await startSandbox(options);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const where = `${options.host}:${options.port}`;
    if (code === 'EADDRINUSE')
      throw new UsageError(
        `port ${options.port} on ${options.host} is taken: another program (another sandbox?) listens there`,
        'stop it, or give another --port (--port 0 takes any free port; a command after -- finds ' +
          'it in COLLECT_BASE_URL)',
      );
    if (code === 'EACCES')
      throw new UsageError(`cannot listen on ${where}: permission denied`, 'give a --port of 1024 or above');
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw new UsageError(
        `cannot listen on ${where}: ${options.host} is not an address of this machine`,
        'give --host 127.0.0.1 (the default) or an address of this machine',
      );
    throw cause;
  }
}

/**
 * Checks that the --record file can be appended to (created if need be, never emptied), so a session is never
 * lost to it.
 */
function checkRecordFile(file: string): void {
  try {
    closeSync(openSync(file, 'a', 0o600));
  } catch (cause) {
    throw outputFileError('--record', file, cause);
  }
}

/**
 * `collect sandbox [-- COMMAND]`: the local service listening (faults, rules, --upstream, --record),
 * the report file started and the pid written, then the session (sandboxSession.ts) until it stops
 * or COMMAND ends; returns the exit code.
 */
export async function sandboxWithFlags(
  wrapped: string[] | undefined,
  flags: SandboxFlags,
  io: CliIo,
): Promise<number> {
  // The output-file rules of --rejects: never through a link, never a file collect did not write.
  if (flags.report !== undefined) refuseUnsafeOutputs({ report: flags.report }, { specs: [] });
  const upstream = upstreamOf(io, flags);
  // The upstream key never reaches the terminal either, whatever the service or the application sends.
  const out = upstream ? redactingIo(io, upstream.redact) : io;
  if (flags.pidFile !== undefined) checkPidFile(flags.pidFile);
  if (flags.record !== undefined) checkRecordFile(flags.record);
  const sandbox = await listen({
    host: flags.host,
    port: flags.port,
    seed: flags.seed,
    slowMs: flags.slowMs,
    retryAfterSeconds: flags.retryAfter,
    faults: {
      fail: flags.failRate,
      throttle: flags.throttleRate,
      slow: flags.slowRate,
      reset: flags.resetRate,
    },
    rules: {
      rejectAbove: flags.rejectAbove,
      reviewAbove: flags.reviewAbove,
      blockedBins: flags.blockedBins
        .split(',')
        .map((bin) => bin.trim())
        .filter(Boolean),
    },
    ...(flags.key === undefined ? {} : { key: flags.key }),
    ...(flags.record === undefined ? {} : { record: flags.record }),
    ...(flags.report === undefined ? {} : { judge: { strict: flags.strict === true } }),
    ...(upstream ? { upstream } : {}),
    allowHosts: flags.allowHost ?? [],
    keepBytes: flags.keepMb * 1024 * 1024,
    onError: (cause, doing) =>
      out.stderr.write(
        internalErrorText(cause, io.env).replace(
          'internal error:',
          `internal error while ${doing}; the sandbox goes on:`,
        ),
      ),
  });
  try {
    // Emptied at once: a report left from an earlier session is never taken for this one's.
    if (flags.report !== undefined) startReportFile(flags.report);
    if (flags.pidFile !== undefined) writePidFile(flags.pidFile);
  } catch (cause) {
    await sandbox.close();
    throw cause;
  }
  const faults = [
    ['fail', flags.failRate],
    ['throttle', flags.throttleRate],
    ['slow', flags.slowRate],
    ['reset', flags.resetRate],
  ].filter(([, r]) => Number(r) > 0);
  const serving = upstream
    ? `forwarding to ${upstream.base.href}`
    : `${flags.key === undefined ? 'any key accepted' : 'one key accepted'}; faults: ` +
      `${faults.length ? faults.map(([n, r]) => `${n} ${r}`).join(', ') : 'none'}; seed ${flags.seed}`;
  const judging =
    flags.report === undefined
      ? ''
      : `\n  judging every request: report at ${sandbox.url}/_sandbox/report, written to ${flags.report} on stop`;
  const until = wrapped
    ? `running ${wrapped.join(' ')} with COLLECT_BASE_URL=${sandbox.url}`
    : 'stop it with Ctrl-C';
  out.stderr.write(`collect sandbox: listening on ${sandbox.url} (${serving})${judging}\n  ${until}\n`);
  return runSession(out, sandbox, {
    ...(flags.report === undefined
      ? {}
      : { report: { file: flags.report, format: formatOf(flags.report, flags.reportFormat) } }),
    ...(wrapped ? { command: wrapped } : {}),
    ...(flags.pidFile === undefined ? {} : { pidFile: flags.pidFile }),
    ...(upstream
      ? {
          redact: upstream.redact,
          // The command talks to the sandbox: it gets the key the sandbox takes, never the upstream's.
          upstreamKey: { secret: upstream.key, commandKey: flags.key ?? SANDBOX_KEY },
        }
      : {}),
    keepMb: flags.keepMb,
  });
}
