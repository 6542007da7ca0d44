import { closeSync, constants, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file whole: into a new file beside it (0600: reports quote input values), renamed over it
 * once complete, so a reader never sees half of it, a failure leaves the last one, and a link planted
 * at `path` is replaced, never followed. Each piece of 64 KiB goes through `redact`; a failure is
 * thrown as `fail(cause)`, the temporary file gone.
 */
export function writeFileWhole(
  path: string,
  chunks: Iterable<string>,
  fail: (cause: unknown) => Error,
  redact: (text: string) => string = (text) => text,
): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    let text = '';
    for (const chunk of chunks) {
      text += chunk;
      if (text.length < 64 * 1024) continue;
      writeSync(fd, redact(text));
      text = '';
    }
    if (text !== '') writeSync(fd, redact(text));
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (cause) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw fail(cause);
  }
}
