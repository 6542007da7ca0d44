import v8 from 'node:v8';

/**
 * The V8 flag that keeps every heap of the process within 1.5 times its live data after a full
 * collection, unless node was started with its own. Left alone, V8 on a machine with a lot of
 * memory lets the main heap grow to about four times its live data, so a long run's peak memory
 * grows with its length although its live data does not (bench/run.js, the memory row).
 */
export function heapGrowthFlag(execArgv: readonly string[]): string | undefined {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return undefined;
  return '--heap-growing-percent=50';
}

/**
 * Sets heapGrowthFlag's flag, for a run that only checks (a dry run), before it starts any worker
 * thread: V8 reads it at each full collection, so setting it once started still counts. A run that
 * sends keeps V8's own growth: with the cap, sends to a local server ran 5-7% slower (8 and 64
 * connections), even when the cap was lifted as sending began.
 */
export function tightenHeapGrowth(execArgv: readonly string[]): void {
  const flag = heapGrowthFlag(execArgv);
  if (flag) v8.setFlagsFromString(flag);
}
