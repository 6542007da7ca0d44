import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The pure core's tests load no worker, server or database: they share one module graph per worker.
const pure = ['core', 'flow', 'report', 'resources', 'schema', 'validate', 'convert', 'mapping', 'fast'].map(
  (folder) => `src/${folder}/**/*.test.ts`,
);

export default defineConfig({
  test: {
    testTimeout: 20000,
    // One process per worker for the whole run, each project's files sharing its module graph: vitest's
    // pool reads this root value alone (a project's `isolate` only resets modules within the process), and a
    // process per file cost 250 of the suite's 500 CPU seconds. No test file changes process-wide state
    // (environment, working folder, signal handlers, V8 flags); vi.resetConfig and vi.restoreAllMocks run after each file.
    isolate: false,
    // Hooks run collect too (test/stateErrors.test.ts's beforeAll): the tests' limit, not vitest's 10 s
    hookTimeout: 20000,
    // One file more than cores: the end-to-end files wait a third of their time on a child, a server or a
    // timer (on 2 cores: 400 s of files' time for 254 s of CPU). As many workers from the start: tinypool stops
    // a worker idle past minWorkers at once, and such a stop once failed the run ('Terminating worker thread').
    maxWorkers: availableParallelism() + 1,
    minWorkers: availableParallelism() + 1,
    projects: [
      { extends: true, test: { name: 'pure', include: pure } },
      {
        extends: true,
        test: {
          name: 'edge',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: pure,
          globalSetup: ['test/globalSetup.ts'],
        },
      },
    ],
  },
});
