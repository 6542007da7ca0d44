import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The pure core's tests load no worker, server or database: they share one module graph per worker.
const pure = ['core', 'flow', 'report', 'resources', 'schema', 'validate', 'convert', 'mapping', 'fast'].map(
  (folder) => `src/${folder}/**/*.test.ts`,
);

export default defineConfig({
  test: {
    testTimeout: 20000,
    // Hooks run collect too (test/stateErrors.test.ts's beforeAll): the tests' limit, not vitest's 10 s
    hookTimeout: 20000,
    // At least two files at a time, even on 2 cores: most end-to-end tests wait on a child or a server
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // Without isolation these files took 53 s of vitest's time instead of 310 s (tools29's measurement)
      { extends: true, test: { name: 'pure', include: pure, isolate: false } },
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
