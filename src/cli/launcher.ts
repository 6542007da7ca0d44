/**
 * npx (npm exec) runs collect through `sh -c`: a SIGTERM sent to npx ends that shell and npx, and
 * never reaches collect. When npx started this process, its end is the stop request.
 */
export function startedByNpx(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.npm_command === 'exec';
}

/** Whether a process is still there (a process we may not signal is there too). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Calls `onGone` once when the process `pid` has ended, checking every `everyMs`; returns the way to stop watching. */
export function watchProcess(pid: number, onGone: () => void, everyMs = 250): () => void {
  const timer = setInterval(() => {
    if (isRunning(pid)) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
