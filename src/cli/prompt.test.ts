import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../terminal/io.js';
import { askingCommands, asksBeforeSending } from './prompt.js';

/** Standard input on a terminal, or not: all that asksBeforeSending reads of the io. */
const terminal = (tty: boolean) => ({ io: { stdin: { isTTY: tty } } as unknown as CliIo });

describe('asksBeforeSending', () => {
  const program = (tty: boolean) => {
    const { io } = terminal(tty);
    let ran = false;
    const root = new Command('collect').exitOverride();
    const command = new Command('mark').option('--dry-run').option('--by-hand');
    asksBeforeSending(command, io, { what: 'marks', when: (flags) => flags.byHand === true });
    root.addCommand(command.action(() => void (ran = true)));
    return { root, ran: () => ran };
  };
  it('refuses before the action when no one can answer', async () => {
    const { root, ran } = program(false);
    await expect(root.parseAsync(['mark', '--by-hand'], { from: 'user' })).rejects.toThrow(
      'refusing to send marks without confirmation: standard input is not a terminal',
    );
    expect(ran()).toBe(false);
  });
  it('lets it run with --yes, on a dry run, when this command line does not ask, or on a terminal', async () => {
    for (const [tty, args] of [
      [false, ['--by-hand', '--yes']],
      [false, ['--by-hand', '--dry-run']],
      [false, []],
      [true, ['--by-hand']],
    ] as const) {
      const { root, ran } = program(tty);
      await root.parseAsync(['mark', ...args], { from: 'user' });
      expect(ran()).toBe(true);
    }
  });
  it('lists the commands that ask', () => {
    expect(askingCommands(program(true).root)).toEqual(['mark']);
  });
});
