import v8 from 'node:v8';

/**
 * The V8 flag that keeps every heap within 1.5 times its live data after a full collection, unless
 * node was started with its own: a long dry run's peak memory must not grow with its length.
 */
export function heapGrowthFlag(execArgv: readonly string[]): string | undefined {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return undefined;
  return '--heap-growing-percent=50';
}

/**
 * Sets heapGrowthFlag's flag for a dry run, before any worker thread starts (V8 reads it at each
 * full collection). A run that sends keeps V8's own growth: the cap slows sending.
 */
export function tightenHeapGrowth(execArgv: readonly string[]): void {
  const flag = heapGrowthFlag(execArgv);
  if (flag) v8.setFlagsFromString(flag);
}
