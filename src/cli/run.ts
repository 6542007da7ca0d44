import { Command, CommanderError } from 'commander';
import { isCollectError } from '../core/errors.js';
import { exitCodes, exitCodesHelp } from '../core/exitCodes.js';
import { registry } from '../resources/registry.js';
import { backfillCommand } from './commands/backfillCommand.js';
import { endpointCommand } from './commands/endpointCommand.js';
import { rulesCommand } from './commands/rulesCommand.js';
import { sandboxCommand } from './commands/sandboxCommand.js';
import { schemaCommand } from './commands/schemaCommand.js';
import { templateCommand } from './commands/templateCommand.js';
import type { CliIo } from './io.js';

const VERSION = '0.1.0';

function program(io: CliIo, setExit: (code: number) => void): Command {
  const root = new Command('collect')
    .description('Validate and send orders, status changes, fraud marks, payments and deliveries\nto the fraud-prevention order collection service.')
    .version(VERSION)
    .showSuggestionAfterError()
    .addHelpText('after', `
Examples:
  $ collect order fixtures/order/valid.csv --dry-run
  $ collect status updates.ndjson --dry-run --format json
  $ collect backfill fixtures/history --dry-run
  $ collect rules
  $ collect template order > orders.csv
  $ collect schema fraud

${exitCodesHelp()}`);
  for (const resource of registry.all) root.addCommand(endpointCommand(resource, io, setExit));
  root.addCommand(backfillCommand(io, setExit)).addCommand(rulesCommand(io)).addCommand(sandboxCommand(io, io.untilStopped, setExit)).addCommand(schemaCommand(io)).addCommand(templateCommand(io));
  const configure = (command: Command) => {
    command.exitOverride().configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
    command.commands.forEach(configure);
  };
  configure(root);
  return root;
}

/** Runs `collect` with the given arguments; returns its exit code (core/exitCodes.ts). Never throws for a user error. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  try {
    await program(io, (code) => (exitCode = code)).parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (cause) {
    if (cause instanceof CommanderError) {
      // Help and version are successes; every other commander error is a usage error.
      return cause.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    if (isCollectError(cause)) {
      io.stderr.write(`collect: ${cause.message}\n${cause.hint ? `  fix: ${cause.hint}\n` : ''}`);
      return cause.exitCode;
    }
    const detail = io.env.COLLECT_DEBUG ? `\n${(cause as Error).stack ?? String(cause)}` : '';
    io.stderr.write(`collect: internal error: ${(cause as Error).message ?? String(cause)}${detail}\n  please report it, with COLLECT_DEBUG=1 set for details\n`);
    return exitCodes.internal;
  }
}
