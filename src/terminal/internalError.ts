/** The message of an error that is a bug of collect: no stack trace unless COLLECT_DEBUG asks for it. */
export function internalErrorText(cause: unknown, env: Readonly<Record<string, string | undefined>>): string {
  const detail = env.COLLECT_DEBUG ? `\n${(cause as Error)?.stack ?? String(cause)}` : '';
  return (
    `collect: internal error: ${(cause as Error)?.message ?? String(cause)}${detail}\n  please ` +
    `report it, with COLLECT_DEBUG=1 set for details\n`
  );
}
