// Preloaded with --import: reports the process's peak resident memory (bytes) and its CPU time
// (seconds, user + system, worker threads included) on exit, on fd 3.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    const usage = process.resourceUsage();
    writeSync(3, `${usage.maxRSS * 1024} ${(usage.userCPUTime + usage.systemCPUTime) / 1e6}\n`);
  } catch {
    // fd 3 is not open: run outside the benchmark.
  }
});
