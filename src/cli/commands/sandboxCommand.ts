import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../../core/errors.js';
import { exitCodes, exitCodesHelp, type ExitRow } from '../../core/exitCodes.js';
import { reportFormats } from '../../report/formatReport.js';
import { defaultRules } from '../../sandbox/decide.js';
import { DEFAULT_KEEP_BYTES } from '../../sandbox/server.js';
import { sandboxWithFlags, type SandboxFlags } from '../../compose/sandboxWithFlags.js';
import type { CliIo } from '../../terminal/io.js';

/**
 * The command after `--`, if any; words without `--` are an error (a misplaced flag would otherwise run as a
 * command).
 */
function wrappedCommand(words: readonly string[], command: Command): string[] | undefined {
  if (words.length === 0) return undefined;
  // commander keeps the words as given on the root (`rawArgs`, not in its types): the only place `--` still shows.
  const given = (command.parent as unknown as { rawArgs?: string[] } | null)?.rawArgs ?? [];
  if (!given.includes('--')) {
    throw new UsageError(
      `unexpected ${words[0]}: the command to run against the sandbox goes after --`,
      `collect sandbox --report report.xml -- ${words.join(' ')}`,
    );
  }
  return [...words];
}

const rate = (text: string) => {
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new InvalidArgumentError('give a fraction from 0 to 1, e.g. 0.1');
  return value;
};
const number = (text: string) => {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError('give a number of at least 0');
  return value;
};

/** What `collect sandbox` ends with; a failed -- COMMAND's own code is passed on (the note). */
const exits: readonly ExitRow[] = [
  [exitCodes.ok, 'stopped (a signal), or -- COMMAND succeeded; with --report, every request judged valid'],
  [exitCodes.invalid, 'with --report: some requests broke a rule (the report lists them)'],
  [exitCodes.usage, 'usage error: a bad flag, a taken port, an unwritable file, or COMMAND cannot start'],
  [exitCodes.interrupted, 'interrupted while -- COMMAND ran (the report is written)'],
];

/** `collect sandbox`: a local stand-in for the service, until Ctrl-C or until the command after `--` ends. */
export function sandboxCommand(io: CliIo, setExit: (code: number) => void = () => {}): Command {
  return new Command('sandbox')
    .usage('[options] [-- COMMAND [ARGS...]]')
    .argument(
      '[command...]',
      "run the application's tests against the sandbox (COLLECT_BASE_URL set to its URL), after " +
        '--; then stop, write the report and exit with their code if they failed, else 1 on an error ' +
        'finding (--strict: or a warning), else 0',
    )
    .description(
      'Serves the five endpoints on a local port with the same schemas and the answers of the\n' +
        'service; evaluations follow simple rules; faults are seeded, so a run can be replayed.',
    )
    .option('--port <n>', 'port to listen on (0: any free port)', number, 8787)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--key <key>', 'accept only this API key (default: any key)')
    .option('--record <file>', 'append every request and answer to this NDJSON file (never the key)')
    .option('--seed <n>', 'seed of the fault sequence', number, 1)
    .option('--fail-rate <r>', 'share of requests answered 503', rate, 0)
    .option('--throttle-rate <r>', 'share of requests answered 429 with Retry-After', rate, 0)
    .option('--slow-rate <r>', 'share of requests answered only after --slow-ms', rate, 0)
    .option('--slow-ms <ms>', 'delay of a slow answer (past the client timeout of 2000 ms)', number, 2500)
    .option('--reset-rate <r>', 'share of connections dropped without an answer', rate, 0)
    .option('--retry-after <s>', 'Retry-After seconds of a 429', number, 1)
    .option(
      '--reject-above <value>',
      'evaluate: reject orders whose total_paid_value is above this',
      number,
      defaultRules.rejectAbove,
    )
    .option(
      '--review-above <value>',
      'evaluate: send to manual review above this',
      number,
      defaultRules.reviewAbove,
    )
    .option(
      '--blocked-bins <list>',
      'evaluate: reject cards with these first six digits (comma-separated)',
      defaultRules.blockedBins.join(','),
    )
    .option(
      '--report <file>',
      'judge every request (schemas, flow rules in arrival order, protocol rules); write the report here on stop',
    )
    .addOption(
      new Option(
        '--report-format <format>',
        'format of the report file (default: junit for .xml, json for .json, html for .html, else pretty)',
      ).choices(reportFormats),
    )
    .option('--strict', 'count warnings as errors (in the report and the exit code)')
    .option(
      '--upstream <url>',
      'forward the five endpoints (their methods and paths exactly, nothing else) to this service ' +
        'with\nthe key of COLLECT_API_KEY, for callers that present a Bearer key (--key: that key), ' +
        'and answer\nwith its answers, the key redacted (the fault and evaluation flags then do not ' +
        'apply)',
    )
    .option('--upstream-timeout <ms>', 'how long to wait for the upstream service', number, 10_000)
    .option(
      '--keep-mb <n>',
      'MiB of orders and findings it keeps (shared by the two when judging; the process holds ' +
        'about twice\nthat): past them the least recently used orders are let go and later findings ' +
        'only counted, as the report says',
      number,
      DEFAULT_KEEP_BYTES / 1024 / 1024,
    )
    .option(
      '--allow-host <name>',
      'also answer requests whose Host is this name (e.g. a docker service name, with --host 0.0.0.0)',
      (name: string, names: string[] | undefined) => [...(names ?? []), name],
    )
    .option(
      '--pid-file <file>',
      'write the process id here once listening (removed at exit), for `kill $(cat FILE)`',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ collect sandbox --pid-file sandbox.pid &           # or in a terminal of its own, until Ctrl-C
  $ COLLECT_API_KEY=sandbox-key collect backfill fixtures/history --base-url http://127.0.0.1:8787
  $ curl -s http://127.0.0.1:8787/_sandbox/orders/ORD-1001
  $ kill $(cat sandbox.pid)
  $ collect sandbox --fail-rate 0.2 --throttle-rate 0.1 --seed 7 --record sandbox.ndjson

  As a contract test of an application: its tests run against the sandbox (COLLECT_BASE_URL set to its
  URL); the exit code is theirs if they failed, else 1 when a request broke a rule, else 0:
  $ collect sandbox --port 0 --report report.xml -- npm test

  Or in the background until a signal (SIGINT, SIGTERM) stops it, writes the report and exits 1 or 0:
  $ collect sandbox --report report.xml --pid-file sandbox.pid &
  $ curl -s http://127.0.0.1:8787/_sandbox/report            # the report so far (JSON)
  $ kill $(cat sandbox.pid)
  $ collect sandbox --report report.json --upstream https://staging.example.com   # COLLECT_API_KEY: its key

Who it answers: programs on this machine. A request with a browser Origin header, or whose
Host is not the sandbox's own address and port (127.0.0.1:PORT, localhost:PORT, [::1]:PORT as
it listens, or an --allow-host name) is refused (403) unjudged, so no web page can drive it.
Only POST /v2/order, PUT /v2/order, POST /v2/order/mark_fraudulent, PUT /v2/order/payment and
PUT /v2/order/delivery are endpoints, exactly as written (no query, no encoded or extra
segments): anything else is 404 or 405 and, with --upstream, never forwarded. A request
without Authorization: Bearer is 401 (and reported); with --upstream it is not forwarded.

${exitCodesHelp(exits, "N   -- COMMAND failed with exit code N: the sandbox ends with COMMAND's own code")}`,
    )

    .action(async (words: string[], flags: SandboxFlags, command: Command) => {
      if (flags.report === undefined && (flags.reportFormat !== undefined || flags.strict)) {
        throw new UsageError('--report-format and --strict apply to a report', 'add --report FILE');
      }
      setExit(await sandboxWithFlags(wrappedCommand(words, command), flags, io));
    });
}
