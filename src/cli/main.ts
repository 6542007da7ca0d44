#!/usr/bin/env node
import { useFastPaths } from '../fast/fastPaths.js';
import { tightenHeapGrowth } from './heapGrowth.js';
import { processIo } from './processIo.js';
import { run } from './run.js';

// A reader that closed the pipe early (`| head`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (cause: NodeJS.ErrnoException) => {
    if (cause.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw cause;
  });
}

// The fast paths' switch is read here alone, and handed to the code below (fast/fastPaths.ts).
useFastPaths(process.env.COLLECT_FAST_PATHS !== '0');

// The only place that sets the exit code. No top-level await: the single binary runs this bundled as CommonJS.
void run(process.argv.slice(2), {
  ...processIo(),
  onCheckOnly: () => tightenHeapGrowth(process.execArgv),
}).then((code) => {
  process.exitCode = code;
});
