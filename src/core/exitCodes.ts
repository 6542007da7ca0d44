/** The exit codes of docs/cli.md: every exit code of collect is decided from this table. */
export const exitCodes = {
  ok: 0,
  invalid: 1,
  usage: 2,
  deliveryFailed: 3,
  internal: 70,
  interrupted: 130,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** What each code means, for help texts and the README (a test holds them to this table). */
export const exitCodeMeanings: readonly { code: ExitCode; meaning: string }[] = [
  {
    code: exitCodes.ok,
    meaning: 'every record valid (warnings allowed unless --strict) and, when sending, accepted',
  },
  { code: exitCodes.invalid, meaning: 'some records invalid or rejected by the service' },
  {
    code: exitCodes.usage,
    meaning: 'usage or input error: a bad flag, a missing key or URL, an unreadable or corrupt file or state',
  },
  {
    code: exitCodes.deliveryFailed,
    meaning:
      'delivery failed: the key was refused, the service unreachable or misaddressed, retries exhausted',
  },
  {
    code: exitCodes.internal,
    meaning: 'internal error: a bug in collect (run again with COLLECT_DEBUG=1 and report it)',
  },
  {
    code: exitCodes.interrupted,
    meaning: 'interrupted (Ctrl-C or SIGTERM); what was done is saved and a re-run goes on',
  },
];

/** A code a command can end with, in the command's own words where the shared meaning does not fit it. */
export type ExitRow = ExitCode | readonly [ExitCode, string];

/** The codes of a command that checks records and may send them: every row of the table. */
export const runExits: readonly ExitRow[] = exitCodeMeanings
  .map(({ code }) => code)
  .filter((code) => code !== exitCodes.internal);

/**
 * A command's exit table as a help text section: the codes it can end with, each in its words or
 * the shared ones, then 70 (any command can have a bug) and `note` (what no code says).
 */
export function exitCodesHelp(rows: readonly ExitRow[] = runExits, note?: string): string {
  const shared = (code: ExitCode) => exitCodeMeanings.find((row) => row.code === code)!.meaning;
  const lines = [...rows, exitCodes.internal]
    .map((row) => (typeof row === 'number' ? ([row, shared(row)] as const) : row))
    .sort(([a], [b]) => a - b)
    .map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`);
  return `Exit codes:\n${lines.join('\n')}${note === undefined ? '' : `\n  ${note}`}`;
}

/** What a finished run means as an exit code. */
export function runExitCode(run: {
  interrupted: boolean;
  stateFailed?: boolean;
  deliveryFailed: boolean;
  faulty: boolean;
}): ExitCode {
  // The state, like a damaged one at the start, is 2: what to fix is the database or the disk, not the re-run.
  if (run.stateFailed === true) return exitCodes.usage;
  if (run.interrupted) return exitCodes.interrupted;
  if (run.deliveryFailed) return exitCodes.deliveryFailed;
  return run.faulty ? exitCodes.invalid : exitCodes.ok;
}
