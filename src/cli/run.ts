import { Command, CommanderError } from 'commander';
import { isCollectError } from '../core/errors.js';
import { exitCodes, exitCodesHelp } from '../core/exitCodes.js';
import { terminalLines } from '../core/terminalText.js';
import { commandSummaries, summaries } from './commandSummaries.js';
import { internalErrorText } from '../terminal/internalError.js';
import type { CliIo } from '../terminal/io.js';

const VERSION = '0.1.0';

type SetExit = (code: number) => void;

/** Builds one command; its module (and what it needs: zod, undici, sqlite) is imported only here. */
type CommandLoader = (io: CliIo, setExit: SetExit) => Promise<Command>;

/** The endpoints' commands, one per resource of the registry (loaded with its schemas). */
async function endpointCommands(io: CliIo, setExit: SetExit, only?: string): Promise<Command[]> {
  const [{ endpointCommand }, { registry }] = await Promise.all([
    import('./commands/endpointCommand.js'),
    import('../resources/registry.js'),
  ]);
  return registry.all
    .filter((resource) => only === undefined || resource.name === only)
    .map((resource) => endpointCommand(resource, io, setExit));
}

/** Every command that is not an endpoint, in the order of `collect --help` (after the endpoints). */
const commandLoaders: Record<string, CommandLoader> = {
  backfill: async (io, setExit) =>
    (await import('./commands/backfillCommand.js')).backfillCommand(io, setExit),
  chargebacks: async (io, setExit) =>
    (await import('./commands/chargebacksCommand.js')).chargebacksCommand(io, setExit),
  decisions: async (io, setExit) =>
    (await import('./commands/decisionsCommand.js')).decisionsCommand(io, setExit),
  relay: async (io, setExit) => (await import('./commands/relayCommand.js')).relayCommand(io, setExit),
  rules: async (io) => (await import('./commands/rulesCommand.js')).rulesCommand(io),
  sandbox: async (io, setExit) => (await import('./commands/sandboxCommand.js')).sandboxCommand(io, setExit),
  schema: async (io) => (await import('./commands/schemaCommand.js')).schemaCommand(io),
  template: async (io) => (await import('./commands/templateCommand.js')).templateCommand(io),
  map: async (io) => (await import('./commands/mapCommand.js')).mapCommand(io),
  completion: async (io) =>
    (await import('./commands/completionCommand.js')).completionCommand(io, () => fullProgram(io, () => {})),
};

/** The name of the command `argv` runs (`collect help NAME` too), or undefined for the root itself. */
function commandNamed(argv: readonly string[]): string | undefined {
  const first = argv[0] === 'help' ? argv[1] : argv[0];
  return first === undefined || first.startsWith('-') ? undefined : first;
}

/** Wraps help at word boundaries to the terminal, never wider than reads well. */
const HELP_WIDTH_MAX = 100;

const helpWidthFor = (io: CliIo) =>
  Math.min((io.stdout as { columns?: number }).columns ?? 80, HELP_WIDTH_MAX);

function rootCommand(): Command {
  return new Command('collect')
    .description(
      'Validate and send orders, status changes, fraud marks, payments and deliveries to the ' +
        'fraud-prevention order collection service.',
    )
    .version(VERSION)
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `
Examples:
  $ collect order fixtures/order/valid.csv --dry-run
  $ collect status fixtures/status/valid.ndjson --dry-run --format json
  $ collect backfill fixtures/history --dry-run
  $ collect rules
  $ collect template order > orders.csv
  $ collect schema fraud
  $ collect completion bash > ~/.local/share/bash-completion/completions/collect

${exitCodesHelp()}`,
    );
}

function configure(command: Command, io: CliIo, helpWidth: number): void {
  command.exitOverride().configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
  });
  command.configureHelp({ ...command.configureHelp(), helpWidth });
  // Descriptions are written as paragraphs broken for the source; help wraps them at words to the width instead.
  command.description(command.description().replace(/(?<!\n)\n(?!\n)/g, ' '));
  for (const sub of command.commands) configure(sub, io, helpWidth);
}

/** One command, with its summary from the table the root's help reads too. */
async function loadCommand(name: string, io: CliIo, setExit: SetExit): Promise<Command> {
  const command = await commandLoaders[name]!(io, setExit);
  const summary = commandSummaries[name];
  return summary === undefined ? command : command.summary(summary);
}

/** The root with every command loaded: for `collect completion`, which describes them all. */
export async function fullProgram(io: CliIo, setExit: SetExit): Promise<Command> {
  const root = rootCommand();
  for (const command of await endpointCommands(io, setExit)) root.addCommand(command);
  for (const name of Object.keys(commandLoaders)) root.addCommand(await loadCommand(name, io, setExit));
  configure(root, io, helpWidthFor(io));
  return root;
}

/**
 * The root with only the command `argv` runs loaded: `--version` loads no command at all, and the
 * root's help lists each command from a stand-in with its summary (the endpoints' from the registry).
 */
async function program(argv: readonly string[], io: CliIo, setExit: SetExit): Promise<Command> {
  const root = rootCommand();
  const name = commandNamed(argv);
  if (name !== undefined && Object.hasOwn(commandLoaders, name)) {
    root.addCommand(await loadCommand(name, io, setExit));
  } else if (!(argv[0] === '--version' || argv[0] === '-V')) {
    const endpoint = name === undefined ? [] : await endpointCommands(io, setExit, name);
    if (endpoint.length > 0) root.addCommand(endpoint[0]!);
    // The root's help, or an unknown command (to suggest the nearest): every command by name and summary.
    else
      for (const [other, summary] of Object.entries(await summaries()))
        root.addCommand(new Command(other).summary(summary));
  }
  configure(root, io, helpWidthFor(io));
  return root;
}

/**
 * Runs `collect` with the given arguments; returns its exit code (core/exitCodes.ts). Never throws for a user
 * error.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  try {
    await (await program(argv, io, (code) => (exitCode = code))).parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (thrown) {
    if (thrown instanceof CommanderError) {
      // Help and version are successes; every other commander error is a usage error.
      return thrown.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    // An error may quote the key (a transform that failed to load) or a state URL (a driver's message): both
    // are hidden here too.
    const [{ redactor, keyInEnvironment }, { maskUrlCredentials }] = await Promise.all([
      import('../compose/apiKey.js'),
      import('../core/urlCredentials.js'),
    ]);
    const redact = redactor(keyInEnvironment(io.env));
    const hide = (text: string) => maskUrlCredentials(redact(text));
    // A full disk, a server down, a refused login reach here from any command: exit 2 with the cause and a fix.
    const cause = isCollectError(thrown)
      ? thrown
      : ((await import('../core/operationalError.js')).operationalError(thrown) ?? thrown);
    if (isCollectError(cause)) {
      // Messages quote file names, headers and the service's words: escaped, as on every terminal.
      io.stderr.write(
        terminalLines(hide(`collect: ${cause.message}\n${cause.hint ? `  fix: ${cause.hint}\n` : ''}`)),
      );
      return cause.exitCode;
    }
    io.stderr.write(terminalLines(hide(internalErrorText(cause, io.env))));
    return exitCodes.internal;
  }
}
