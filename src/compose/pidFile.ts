import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { processIsAlive } from '../state/runScratch.js';
import { outputFileError } from '../core/operationalError.js';

/** The pid a file holds, null when it does not exist, or undefined when it is something else than a pid file. */
function readPid(file: string): number | null | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UsageError(
      `--pid-file ${file}: cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`,
      'give a path in a folder you may write to',
    );
  }
  return /^\d+\s*$/.test(text) ? Number(text.trim()) : undefined;
}

/**
 * Checks, as a daemon does before it starts, that `file` may become this process's pid file: a
 * missing file, or a stale one (its process has ended). A file that is not a pid file is never
 * overwritten, and one naming a running process means another sandbox may be using it.
 */
export function checkPidFile(file: string): void {
  const pid = readPid(file);
  if (pid === undefined)
    throw new UsageError(
      `--pid-file ${file}: the file exists and does not hold a process id; it is left as it is`,
      'give the path of a new file, e.g. sandbox.pid',
    );
  if (pid !== null && pid !== process.pid && processIsAlive(pid)) {
    throw new UsageError(
      `--pid-file ${file}: process ${pid} named there is running (another sandbox?)`,
      `stop it (kill ${pid}), or remove ${file} if that process is not a sandbox`,
    );
  }
}

/** Writes this process's id to `file` whole (a script polling for the file never reads it half-written). */
export function writePidFile(file: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${process.pid}\n`);
    renameSync(temporary, file);
  } catch (cause) {
    rmSync(temporary, { force: true });
    throw outputFileError('--pid-file', file, cause);
  }
}

/** Removes `file` if it still names this process (never another one's). Never throws: it runs on the way out. */
export function removePidFile(file: string): void {
  try {
    if (readPid(file) === process.pid) rmSync(file);
  } catch {
    // The file went away or became unreadable: there is nothing of ours left to remove.
  }
}
