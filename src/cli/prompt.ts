import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { terminalLines } from '../core/terminalText.js';
import type { CliIo } from './io.js';
import { holdProgress } from './progress.js';

/**
 * The one way collect asks before sending (`collect fraud --order-id`, `collect chargebacks`, and
 * any later command): a command declares that it asks (asksBeforeSending), and its run asks
 * through confirmSending. test/askingCommands.test.ts drives every declared command on a terminal.
 */

/** What a command that asks before sending says of itself. */
export interface Asking {
  /** What it sends, for the refusal without a terminal: `a fraud mark`, `chargeback marks`. */
  what: string;
  /** Whether this command line asks, besides not being a dry run (default: always). */
  when?: (flags: Readonly<Record<string, unknown>>) => boolean;
}

/** Flags of every asking command. */
export interface AskingFlags {
  yes?: boolean;
}

const declared = new WeakSet<Command>();

const refusal = (what: string) =>
  new UsageError(
    `refusing to send ${what} without confirmation: standard input is not a terminal`,
    'add --yes when no one is at a terminal to confirm',
  );

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

/** One question before sending. */
export interface Question {
  /** What would be sent, shown before the question (and with --yes all the same); escaped here. */
  shown: string;
  /** What the rules could not check, said once before the question. */
  warnings: readonly string[];
  /** `Send this fraud mark?`: ` [y/N] ` is added. */
  question: string;
  /** --yes: show what is sent, and send without asking. */
  yes: boolean;
  /** What is sent, for the refusal should no one be able to answer. */
  what: string;
}

/**
 * Shows what would be sent and asks: every progress line stops and is cleared first, so the
 * question is the last line until it is answered; the answer (typed, echoed by the terminal) ends
 * its line. Yes only for `y` or `yes`; Ctrl-C (the run then ends as interrupted, 130) or the end
 * of input is a no.
 */
export async function confirmSending(io: CliIo, question: Question): Promise<boolean> {
  const release = holdProgress();
  try {
    io.stderr.write(terminalLines(question.shown));
    for (const warning of question.warnings) io.stderr.write(`warning: ${terminalLines(warning)}\n`);
    if (question.yes) return true;
    // Declared commands never get here without a terminal; a pipe is never read as an answer.
    if (io.stdin.isTTY !== true) throw refusal(question.what);
    return await answer(io, `${terminalLines(question.question)} [y/N] `);
  } finally {
    release();
  }
}

async function answer(io: CliIo, question: string): Promise<boolean> {
  const reader = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  const abort = new AbortController();
  const stopListening = io.onInterrupt(() => abort.abort());
  // Ctrl-D: the input ends, and readline would leave the question unanswered for ever.
  const ended = new Promise<undefined>((resolve) => reader.once('close', () => resolve(undefined)));
  try {
    const text = await Promise.race([reader.question(question, { signal: abort.signal }), ended]);
    if (text !== undefined) return /^y(es)?$/i.test(text.trim());
    io.stderr.write('\n');
    return false;
  } catch (cause) {
    // Cancelled by Ctrl-C: readline itself ends the question's line.
    if (!abort.signal.aborted) throw cause;
    return false;
  } finally {
    stopListening();
    reader.close();
  }
}
