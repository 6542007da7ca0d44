import { Command, InvalidArgumentError, Option } from 'commander';
import { exitCodes, exitCodesHelp, type ExitRow } from '../../core/exitCodes.js';
import { STOP_DEADLINE_MS } from '../../relay/giveUp.js';
import { maskUrlCredentials } from '../../core/urlCredentials.js';
import { outboxUrl, relayWithFlags, type RelayFlags } from '../../compose/relayWithFlags.js';
import { verdictLine } from '../../report/verdictLine.js';
import { colorFor } from '../../terminal/color.js';
import type { CliIo } from '../../terminal/io.js';
import { MAX_EVENT_BYTES } from '../../relay/eventLimits.js';

const whole = (min: number) => (text: string) => {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min)
    throw new InvalidArgumentError(`give a whole number >= ${min}`);
  return value;
};

const positive = (text: string) => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError('give a positive number of requests per second, e.g. 10 or 0.5');
  return value;
};

/** What `collect relay` and its subcommands end with (a signal drains the relay: exit 0; a second one is 130). */
const exits: Record<'relay' | 'init' | 'retry', readonly ExitRow[]> = {
  relay: [
    [
      exitCodes.ok,
      `stopped by SIGTERM or Ctrl-C once the events in flight finished (${STOP_DEADLINE_MS / 1000} s at most;` +
        ' --from -: input ended, no dead letter)',
    ],
    [
      exitCodes.invalid,
      '--from -: standard input ended and some events were dead-lettered (on standard output)',
    ],
    [exitCodes.usage, 'usage error (a bad flag, no key or URL), or the outbox or the state failed'],
    [exitCodes.deliveryFailed, 'the service refused the key, or sending halted (the message says why)'],
    [
      exitCodes.interrupted,
      'a second SIGTERM or Ctrl-C: stopped without waiting; the events in flight stay pending for the next start',
    ],
  ],
  init: [
    [exitCodes.ok, 'the outbox is ready'],
    [exitCodes.usage, 'usage error, or the database cannot be reached or refused the change'],
  ],
  retry: [
    [exitCodes.ok, 'the dead letters were re-queued (with no --id, none at all is fine)'],
    [exitCodes.invalid, 'none of the --id events is dead-lettered'],
    [exitCodes.usage, 'usage error, or the database cannot be reached or refused the change'],
  ],
};

const FROM_HELP =
  'the outbox: a postgres:// URL (the table --table), or - for NDJSON events on standard input';

/**
 * `collect relay`: forwards an application's outbox (a table it writes in its own transactions, or
 * NDJSON on standard input) to the service as events come, with the checks, order and retries of
 * every run; `relay init` creates the outbox, `relay retry` re-queues dead letters.
 */
export function relayCommand(io: CliIo, setExit: (code: number) => void): Command {
  const relay = new Command('relay')
    .description(
      'Forwards every event an application writes to its outbox to the service as it happens: ' +
        "each\nevent is checked (schema and flow rules against the state) and sent in its order's " +
        'flow order,\none at a time per order, orders in parallel. Invalid events and those the ' +
        'service refuses (4xx)\nare dead-lettered with the reason and never block other orders. Runs ' +
        'until SIGTERM, which lets\nwhat is in flight finish (exit 0; a second SIGTERM stops waiting, ' +
        'exit 130). Replicas on one\noutbox share its orders through the database.',
    )
    .option('--from <url|->', FROM_HELP)
    .option('--table <name>', 'the outbox table', 'collect_outbox')
    .option('--base-url <url>', 'the service (default: COLLECT_BASE_URL); https, or http to loopback only')
    .option('--api-key-file <path>', 'read the API key from this file (default: COLLECT_API_KEY)')
    .option(
      '--state <dir|url>',
      'the state the flow rules read and the relay writes: a folder or a postgres:// URL (default: ' +
        'COLLECT_STATE, else the --from database, else .collect)',
    )
    .option('--concurrency <n>', 'events in flight at once (different orders), per replica', whole(1), 32)
    .option('--rate <n>', 'at most this many requests per second', positive)
    .option(
      '--retries <n>',
      'retries of a request on timeouts, connection errors, 408, 429 and 5xx',
      whole(0),
      5,
    )
    .option('--timeout <ms>', 'abandon an attempt this long after it starts', whole(1), 2000)
    .option(
      '--poll-interval <ms>',
      "read the outbox this often without a NOTIFY; the replicas' heartbeat",
      whole(10),
      1000,
    )
    .option(
      '--metrics-port <port>',
      'serve /metrics (Prometheus), /healthz and /readyz on this port',
      whole(0),
    )
    .option(
      '--max-record-bytes <n>',
      "dead-letter events whose body is larger than this, unread (the service's body limit)",
      whole(1),
      MAX_EVENT_BYTES,
    )
    .addOption(
      new Option('--log-format <format>', 'text: problems only; json: one line per event state change')
        .choices(['text', 'json'])
        .default('text'),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ collect relay init --from postgres://app@db/shop
  $ collect relay --from postgres://app@db/shop --base-url https://collect.example.com --metrics-port 9464
  $ collect relay --from - --base-url https://collect.example.com < events.ndjson > dead-letters.ndjson
  $ collect relay retry --from postgres://app@db/shop          # every dead letter, once fixed

${exitCodesHelp(exits.relay)}`,
    )
    .action(async (flags: RelayFlags) => {
      setExit(await relayWithFlags(flags, io));
    });
  relay
    .command('init')
    .description(
      "Creates the outbox table (if missing), the relay's columns, its index and the NOTIFY " +
        'trigger; safe to run again.',
    )
    // Listed for the help: the relay's own --from and --table take the values (optsWithGlobals below).
    .option('--from <url>', 'the outbox database: a postgres:// URL')
    .option('--table <name>', 'the outbox table', 'collect_outbox')
    .addHelpText('after', `\n${exitCodesHelp(exits.init)}`)
    .action(async (_flags: unknown, command: Command) => {
      const flags = command.optsWithGlobals<RelayFlags>();
      const from = outboxUrl(flags, false);
      const { initRelayOutbox } = await import('../../relay/startRelay.js');
      await initRelayOutbox(from, flags.table);
      const ready = `the outbox ${flags.table} in ${maskUrlCredentials(from)} is ready for collect relay`;
      io.stdout.write(`${verdictLine(exitCodes.ok, ready, colorFor(io.stdout, io.env))}\n`);
      setExit(exitCodes.ok);
    });
  relay
    .command('retry')
    .description(
      'Re-queues dead-lettered events (all, or those of --id) and the events held behind them, ' +
        'after you fixed them in the outbox.',
    )
    .option('--from <url>', 'the outbox database: a postgres:// URL')
    .option('--table <name>', 'the outbox table', 'collect_outbox')
    .option('--id <n...>', 'only these outbox ids', (text: string, list: number[] = []) => [
      ...list,
      whole(1)(text),
    ])
    .addHelpText('after', `\n${exitCodesHelp(exits.retry)}`)
    .action(async (own: { id?: number[] }, command: Command) => {
      const flags = command.optsWithGlobals<RelayFlags>();
      const from = outboxUrl(flags, false);
      const { retryDeadLetters } = await import('../../relay/startRelay.js');
      const moved = await retryDeadLetters(from, flags.table, own.id);
      const code = moved.chosen === 0 && own.id !== undefined ? exitCodes.invalid : exitCodes.ok;
      const said =
        `re-queued ${moved.chosen} dead-lettered event${moved.chosen === 1 ? '' : 's'} and ` +
        `${moved.held} held behind ${moved.chosen === 1 ? 'it' : 'them'}`;
      io.stdout.write(`${verdictLine(code, said, colorFor(io.stdout, io.env))}\n`);
      setExit(code);
    });
  return relay;
}
