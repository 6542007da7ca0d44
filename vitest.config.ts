import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The pure core's tests load no worker, server or database: they share one module graph per worker.
const pure = ['core', 'flow', 'report', 'resources', 'schema', 'validate', 'convert', 'mapping', 'fast'].map(
  (folder) => `src/${folder}/**/*.test.ts`,
);

export default defineConfig({
  test: {
    testTimeout: 20000,
    // Removes the temporary folders each test file made (test/helpers/tempDir.ts) once it has run.
    setupFiles: ['test/helpers/tempCleanup.ts'],
    // Says once how many tests were not run for want of PostgreSQL or Chromium (test/helpers/prerequisites.ts).
    reporters: ['default', './test/helpers/prerequisitesReporter.ts'],
    // One process per worker for the whole run, each project's files sharing its module graph: vitest's
    // pool reads this root value alone (a project's `isolate` only resets modules within the process), and a
    // process per file cost 250 of the suite's 500 CPU seconds. No test file changes process-wide state
    // (environment, working folder, signal handlers, V8 flags); vi.resetConfig and vi.restoreAllMocks run after each file.
    isolate: false,
    // Hooks run collect too (test/stateErrors.test.ts's beforeAll): the tests' limit, not vitest's 10 s
    hookTimeout: 20000,
    // At least two files at a time, even on 2 cores: most end-to-end tests wait on a child or a server. A third
    // worker on 2 shared cores (load 8-10) saved nothing measurable and timed a test out (20 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // All started at once: tinypool stops a worker idle past minWorkers at once, and such a stop once failed a
    // whole run ('Terminating worker thread', an unhandled rejection in tinypool).
    minWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'pure', include: pure } },
      {
        extends: true,
        test: {
          name: 'edge',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // The single binary's checks need the binary built (a minute, the registry's Node): they run when
          // one is named, by `npm run test:binary` and .ci/run, not skipped in every `npm test`.
          exclude: process.env.COLLECT_BINARY ? pure : [...pure, 'test/binary.test.ts'],
          globalSetup: ['test/globalSetup.ts'],
        },
      },
    ],
  },
});
