import { UsageError } from '../core/errors.js';
import { maskUrlCredentials } from '../core/urlCredentials.js';
import type { FlowRule } from '../flow/rules/rule.js';
import type { RunInput } from '../run/checkOptions.js';
import type { RunRequest } from '../run/runRequest.js';
import type { Redact } from '../send/outputFiles.js';
import { parseBaseUrl } from '../send/serviceUrl.js';
import type { CliIo } from '../terminal/io.js';
import { keyInEnvironment, loadApiKey, redactor } from './apiKey.js';
import type { RunFlags } from './runFlags.js';
import { chooseState, type StateChoice } from './stateChoice.js';

/**
 * This run's command line, stored in the lock and shown to another run that finds the state locked (no flag
 * carries the key; a state URL's password is masked).
 */
const commandLine = () => ['collect', ...process.argv.slice(2)].map(maskUrlCredentials).join(' ');

/** A command line's run: what to do, the key to hide from everything printed, and the state chosen. */
export interface RequestedRun {
  request: RunRequest;
  /** The API key, or one in the environment on a dry run (a transform may quote it): hidden from every output. */
  secret: string | undefined;
  redact: Redact;
  state: StateChoice;
}

/**
 * The request a command's inputs and flags make: the service and the key when it sends (a usage
 * error when either is missing), the state (stateChoice.ts), and every flag of the run.
 */
export function runRequestOf(
  inputs: RunInput[],
  flags: RunFlags,
  io: CliIo,
  rules: readonly FlowRule[] | undefined,
): RequestedRun {
  const sending = flags.dryRun !== true;
  if (
    inputs.some((input) => input.spec.name === '-' && input.spec.records === undefined) &&
    io.stdin.isTTY === true
  ) {
    throw new UsageError(
      'no input: name the files to read, or pipe records into standard input',
      'e.g. collect order orders.csv --dry-run',
    );
  }
  const baseUrl = flags.baseUrl ?? (io.env.COLLECT_BASE_URL || undefined);
  if (sending && !baseUrl)
    throw new UsageError(
      'no service to send to: give --base-url URL or set COLLECT_BASE_URL',
      'or add --dry-run to check without sending',
    );
  const base = baseUrl === undefined ? undefined : parseBaseUrl(baseUrl);
  const apiKey = sending ? loadApiKey(io, flags.apiKeyFile) : undefined;
  // A dry run needs no key, but one in the environment is hidden all the same (a transform may quote it).
  const secret = apiKey ?? keyInEnvironment(io.env);
  const service = sending && baseUrl && base && apiKey ? { baseUrl, base, apiKey } : undefined;
  const state = chooseState({
    ...(flags.state === undefined ? {} : { state: flags.state }),
    envState: io.env.COLLECT_STATE ?? '',
    sending,
    ...(baseUrl === undefined ? {} : { baseUrl }),
  });
  const request: RunRequest = {
    inputs,
    ...(rules ? { rules } : {}),
    stateDir: state.stateDir,
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
  };
  return { request, secret, redact: redactor(secret), state };
}
