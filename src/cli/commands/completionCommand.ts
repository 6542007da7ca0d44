import { Argument, Command } from 'commander';
import { exitCodes, exitCodesHelp } from '../../core/exitCodes.js';
import { completionScript, completionShells, type CompletionShell } from '../completionScripts.js';
import type { CliIo } from '../../terminal/io.js';

/** `collect completion bash|zsh|fish`: a completion script generated from the commands themselves. */
export function completionCommand(io: CliIo, fullProgram: () => Promise<Command>): Command {
  return new Command('completion')
    .description('Prints a completion script for your shell: commands, options and their choices.')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(completionShells))
    .addHelpText(
      'after',
      `
Examples:
  $ collect completion bash > ~/.local/share/bash-completion/completions/collect
  $ collect completion zsh > ~/.zfunc/_collect      # with fpath+=(~/.zfunc) in ~/.zshrc
  $ collect completion fish > ~/.config/fish/completions/collect.fish

${exitCodesHelp([
  [exitCodes.ok, 'the script printed'],
  [exitCodes.usage, 'usage error: an unknown shell'],
])}`,
    )
    .action(async (shell: CompletionShell) => {
      io.stdout.write(completionScript(shell, await fullProgram()));
    });
}
