import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 20000,
    // Most end-to-end tests wait on a child process or a server: two files at a time even on 2 cores
    // (vitest's default there is one) took the suite from 276 to 211 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
