import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 20000,
    // Hooks run collect too (test/stateErrors.test.ts's beforeAll): the tests' limit, not vitest's 10 s
    hookTimeout: 20000,
    // At least two files at a time, even on 2 cores: most end-to-end tests wait on a child or a server
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
