import { createInterface } from 'node:readline/promises';
import { UsageError } from '../../core/errors.js';
import type { ExitCode } from '../../core/exitCodes.js';
import { terminalLines, terminalText } from '../../core/terminalText.js';
import type { ByHand, Resource } from '../../resources/resource.js';
import type { CliIo } from '../io.js';
import { runWithFlags, type RunFlags } from '../runOptions.js';

export interface ByHandFlags extends RunFlags {
  yes?: boolean;
  [flag: string]: unknown;
}

async function ask(io: CliIo, question: string): Promise<boolean> {
  const prompt = createInterface({ input: io.stdin, output: io.stderr, terminal: false });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

/**
 * One record typed on the command line (`collect fraud --order-id ID --type TYPE`): checked in
 * memory exactly like a file record (schema and flow rules with the state), then shown and
 * confirmed on a terminal right before it is sent, in the same single run.
 */
export async function recordByHand(resource: Resource, byHand: ByHand, files: string[], flags: ByHandFlags, io: CliIo): Promise<ExitCode> {
  if (files.length > 0) throw new UsageError(`give either files or ${byHand.options[0]?.flags.split(' ')[0] ?? 'the record\'s flags'}, not both`);
  const body = byHand.record(flags);
  if (!flags.dryRun && !(flags.baseUrl ?? io.env.COLLECT_BASE_URL)) {
    throw new UsageError('no service to send to: give --base-url URL or set COLLECT_BASE_URL', `or add --dry-run to check the ${resource.name} record without sending`);
  }
  const spec = { name: '(command line)', format: 'json' as const, gzip: false, records: [body] };
  const confirm = async (shown: CliIo, warnings: readonly string[]): Promise<boolean> => {
    const target = (flags.baseUrl ?? shown.env.COLLECT_BASE_URL ?? '').replace(/\/+$/, '');
    shown.stderr.write(terminalLines(`${resource.method} ${target}${resource.path}\n${JSON.stringify(body, null, 2)}\n`));
    // What the rules could not check is said before the question (and with --yes, all the same).
    for (const warning of warnings) shown.stderr.write(`warning: ${terminalText(warning)}\n`);
    if (flags.yes) return true;
    if (shown.stdin.isTTY !== true) throw new UsageError(`refusing to send a ${byHand.noun} without confirmation`, 'add --yes when no one is at a terminal to confirm');
    return ask(shown, `Send this ${byHand.noun}? [y/N] `);
  };
  const code = await runWithFlags([{ resource, spec }], flags, io, flags.dryRun ? {} : { confirm });
  if (!flags.dryRun && code !== 0) io.stderr.write(`collect: the ${byHand.noun} was not sent\n`);
  return code;
}
