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
  { code: exitCodes.ok, meaning: 'everything valid (warnings allowed unless --strict) and, when sending, accepted' },
  { code: exitCodes.invalid, meaning: 'some records invalid or rejected by the service' },
  { code: exitCodes.usage, meaning: 'usage or configuration error (bad flag, missing key, unreadable file or state)' },
  { code: exitCodes.deliveryFailed, meaning: 'delivery failed: authentication refused, service unreachable, retries exhausted' },
  { code: exitCodes.interrupted, meaning: 'interrupted; the state is saved and a re-run resumes' },
  { code: exitCodes.internal, meaning: 'internal error of collect (a bug: please report it)' },
];

/** The exit codes as a help text section. */
export function exitCodesHelp(): string {
  return `Exit codes:\n${exitCodeMeanings.map(({ code, meaning }) => `  ${String(code).padEnd(4)}${meaning}`).join('\n')}`;
}

/** What a finished run means as an exit code. */
export function runExitCode(run: { interrupted: boolean; deliveryFailed: boolean; faulty: boolean }): ExitCode {
  if (run.interrupted) return exitCodes.interrupted;
  if (run.deliveryFailed) return exitCodes.deliveryFailed;
  return run.faulty ? exitCodes.invalid : exitCodes.ok;
}
