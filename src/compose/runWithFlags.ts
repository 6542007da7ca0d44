import { tmpdir } from 'node:os';
import type { ExitCode } from '../core/exitCodes.js';
import { inputBytes } from '../decode/inputMeter.js';
import { IssueSpillFile } from '../report/issueSpillFile.js';
import { checkAndSend } from '../run/checkAndSend.js';
import type { RunInput } from '../run/checkOptions.js';
import { rejectsTargets } from '../run/rejectsTargets.js';
import { scratchOf } from '../state/openState.js';
import type { CliIo } from '../terminal/io.js';
import { redactingIo } from '../terminal/redactingIo.js';
import { refuseUnsafeOutputs } from './outputPaths.js';
import { printRun } from './printRun.js';
import type { RunExtras, RunFlags } from './runFlags.js';
import { runDeps } from './runDeps.js';
import { runRequestOf } from './runRequestOf.js';

export type { RunExtras, RunFlags } from './runFlags.js';

/**
 * The composition root of a checking and sending command: its inputs and flags become a RunRequest
 * (runRequestOf.ts), the run gets the world it touches (runDeps.ts), checkAndSend runs, and its
 * outcome is printed (printRun.ts); returns the exit code.
 */
export async function runWithFlags(
  inputs: RunInput[],
  flags: RunFlags,
  rawIo: CliIo,
  extra: RunExtras = {},
): Promise<ExitCode> {
  const ownFiles = [flags.transform, flags.apiKeyFile].filter((file) => file !== undefined);
  refuseUnsafeOutputs(flags, rejectsTargets(inputs), {
    ...extra.reads,
    files: [...(extra.reads?.files ?? []), ...ownFiles],
  });
  const { request, secret, redact, state } = runRequestOf(inputs, flags, rawIo, extra.rules);
  const io = secret ? redactingIo(rawIo, redact) : rawIo;
  // Before any worker thread starts (cli/heapGrowth.ts).
  if (flags.dryRun === true) rawIo.onCheckOnly?.();
  // Files' sizes give a dry run's progress its total before the records are counted.
  const size = await inputBytes(inputs.map((input) => input.spec));
  // The report's issues past what it keeps in memory wait on disk until the report is written, in a folder
  // of this run's own where the next run removes it if this one is killed (as the run index's).
  const spillScratch = scratchOf(state.stateDir, state.readOnly, tmpdir());
  const issueSpill = new IssueSpillFile(() => spillScratch.dir());
  try {
    const result = await checkAndSend(request, runDeps(io, extra, { redact, issueSpill, size }));
    return await printRun(result, flags, io, extra, { redact, title: request.command ?? '' });
  } finally {
    issueSpill.close();
    spillScratch.close();
  }
}
