import type { Command } from 'commander';
import { refusal } from '../terminal/confirmSending.js';
import type { CliIo } from '../terminal/io.js';

/**
 * The one way collect asks before sending (`collect fraud --order-id`, `collect chargebacks`, and
 * any later command): a command declares that it asks (asksBeforeSending), and its run asks
 * through confirmSending (terminal/confirmSending.ts). test/askingCommands.test.ts drives every declared
 * command on a terminal.
 */

/** What a command that asks before sending says of itself. */
export interface Asking {
  /** What it sends, for the refusal without a terminal: `a fraud mark`, `chargeback marks`. */
  what: string;
  /** Whether this command line asks, besides not being a dry run (default: always). */
  when?: (flags: Readonly<Record<string, unknown>>) => boolean;
}

const declared = new WeakSet<Command>();

/**
 * Declares that `command` asks before it sends: adds --yes, and refuses with exit 2 before its
 * action reads or locks anything when no one can answer (standard input is not a terminal).
 */
export function asksBeforeSending(command: Command, io: CliIo, asking: Asking): Command {
  declared.add(command);
  return command
    .option('--yes', 'send without asking for confirmation')
    .hook('preAction', (_command, action) => {
      const flags = action.opts();
      const asks = flags.dryRun !== true && (asking.when?.(flags) ?? true);
      if (asks && flags.yes !== true && io.stdin.isTTY !== true) throw refusal(asking.what);
    });
}

/** The names of the commands under `root` that ask before sending (for the test that drives them all). */
export function askingCommands(root: Command): string[] {
  return root.commands.flatMap((command) => [
    ...(declared.has(command) ? [command.name()] : []),
    ...askingCommands(command),
  ]);
}
