import { processIsAlive } from '../state/runScratch.js';

/**
 * npx (npm exec) runs collect through `sh -c`: a SIGTERM sent to npx ends that shell and npx, and
 * never reaches collect. When npx started this process, its end is the stop request.
 */
export function startedByNpx(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.npm_command === 'exec';
}

/** Calls `onGone` once when the process `pid` has ended, checking every `everyMs`; returns the way to stop watching. */
export function watchProcess(pid: number, onGone: () => void, everyMs = 250): () => void {
  const timer = setInterval(() => {
    if (processIsAlive(pid)) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
