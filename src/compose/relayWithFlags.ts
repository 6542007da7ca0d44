import { UsageError } from '../core/errors.js';
import type { ExitCode } from '../core/exitCodes.js';
import { maskUrlCredentials } from '../core/urlCredentials.js';
import { parseBaseUrl } from '../send/serviceUrl.js';
import { isPostgresUrl } from '../state/openState.js';
import type { CliIo } from '../terminal/io.js';
import { loadApiKey } from './apiKey.js';

/** The flags of `collect relay` and its subcommands, as parsed (cli/commands/relayCommand.ts). */
export interface RelayFlags {
  from?: string;
  table: string;
  baseUrl?: string;
  apiKeyFile?: string;
  state?: string;
  concurrency: number;
  rate?: number;
  retries: number;
  timeout: number;
  pollInterval: number;
  metricsPort?: number;
  logFormat: 'text' | 'json';
  maxRecordBytes: number;
  id?: number[];
}

/** The outbox's database: a postgres:// URL; - (standard input) only where the command allows it. */
export function outboxUrl(flags: RelayFlags, stdinAllowed: boolean): string {
  const from = flags.from ?? undefined;
  if (from === undefined)
    throw new UsageError(
      'no outbox: give --from postgres://USER@HOST/DB' +
        (stdinAllowed ? ' (or --from - for NDJSON on standard input)' : ''),
      'the relay reads the table --table (default collect_outbox) of that database',
    );
  if (from === '-' && stdinAllowed) return from;
  if (!isPostgresUrl(from))
    throw new UsageError(
      `--from ${JSON.stringify(maskUrlCredentials(from))} is not a postgres:// URL${stdinAllowed ? ' or -' : ''}`,
      'give the database the application writes its outbox in, e.g. postgres://app@db/shop',
    );
  return from;
}

/**
 * `collect relay`'s composition: its flags become a RelayRequest (the service, the key, the state:
 * --state, else COLLECT_STATE, else the outbox's database), and the process's signals its stop:
 * the first drains what is in flight, a second stops waiting for it. Returns the exit code.
 */
export async function relayWithFlags(flags: RelayFlags, io: CliIo): Promise<ExitCode> {
  const from = outboxUrl(flags, true);
  const baseText = flags.baseUrl ?? (io.env.COLLECT_BASE_URL || undefined);
  if (baseText === undefined)
    throw new UsageError('no service to send to: give --base-url URL or set COLLECT_BASE_URL');
  const baseUrl = parseBaseUrl(baseText);
  const apiKey = loadApiKey(io, flags.apiKeyFile);
  const state = flags.state ?? (io.env.COLLECT_STATE || (from === '-' ? '.collect' : from));
  const stop = new AbortController();
  const abandon = new AbortController();
  const stopListening = io.onStop(() => (stop.signal.aborted ? abandon.abort() : stop.abort()));
  // pg and the relay are loaded only when it runs.
  const { startRelay } = await import('../relay/startRelay.js');
  try {
    return await startRelay(
      {
        from,
        table: flags.table,
        baseUrl,
        apiKey,
        state,
        concurrency: flags.concurrency,
        ...(flags.rate === undefined ? {} : { rate: flags.rate }),
        retries: flags.retries,
        timeoutMs: flags.timeout,
        pollMs: flags.pollInterval,
        ...(flags.metricsPort === undefined ? {} : { metricsPort: flags.metricsPort }),
        logFormat: flags.logFormat,
        maxRecordBytes: flags.maxRecordBytes,
      },
      {
        stdin: io.stdin,
        stdout: io.stdout,
        stderr: io.stderr,
        stop: stop.signal,
        abandon: abandon.signal,
        now: io.now,
      },
    );
  } finally {
    stopListening();
  }
}
