import { tmpdir } from 'node:os';
import { UsageError } from '../core/errors.js';
import { inputMeter } from '../decode/inputMeter.js';
import { rememberOnThread } from '../fast/threadedState.js';
import type { IssueSpill } from '../report/reportIssues.js';
import type { RunDeps } from '../run/runRequest.js';
import type { Redact } from '../send/outputFiles.js';
import { confirmSending } from '../terminal/confirmSending.js';
import type { CliIo } from '../terminal/io.js';
import { startProgress } from '../terminal/progress.js';
import type { RunExtras } from './runFlags.js';

/** The Ctrl-C notice: what happens next, and how to quit at once. */
const STOPPING =
  '\ncollect: stopping: the requests in flight finish, then the summary (Ctrl-C again to quit at once)\n';

const noProgress = { tick: () => {}, stop: () => {} };

/** What a run touches of the world (run/runRequest.ts), from the process's io; the fast paths handed in here. */
export function runDeps(
  io: CliIo,
  extra: RunExtras,
  wiring: {
    redact: Redact;
    issueSpill: IssueSpill;
    /** The inputs' size in bytes, for a progress line with a total before the records are counted. */
    size: number | undefined;
  },
): RunDeps {
  const { ask } = extra;
  const { size } = wiring;
  const memoryRecords = memoryRecordsOf(io.env.COLLECT_MEMORY_RECORDS);
  return {
    stdin: io.stdin,
    now: io.now,
    scratchDir: tmpdir(),
    redact: wiring.redact,
    issueSpill: wiring.issueSpill,
    ...(memoryRecords === undefined ? {} : { memoryRecords }),
    progress: (label, total) =>
      extra.noProgress
        ? noProgress
        : startProgress(
            io,
            label,
            total,
            label === 'checked' && size !== undefined
              ? { total: size, read: () => inputMeter.bytes }
              : undefined,
          ),
    onInterrupt: (handler) =>
      io.onInterrupt(() => {
        io.stderr.write(STOPPING);
        handler();
      }),
    ...(ask ? { confirm: (warnings) => confirmSending(io, ask(warnings)) } : {}),
    ...(extra.onSent ? { onSent: extra.onSent } : {}),
    rememberOnThread,
  };
}

/** COLLECT_MEMORY_RECORDS: how many records and issues a run holds before spilling them to its scratch folder. */
function memoryRecordsOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new UsageError(
      `COLLECT_MEMORY_RECORDS=${JSON.stringify(value)} is not a whole number of at least 1`,
      'unset it for the defaults (50,000 records, 20,000 issues), or give e.g. COLLECT_MEMORY_RECORDS=10000',
    );
  return count;
}
