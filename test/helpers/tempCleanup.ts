/**
 * A setup file (vitest.config.ts): vitest runs it before each test file, so its `afterAll` is
 * that file's last hook; it removes the temporary folders the file made with `tempDir`.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './tempDir.js';

afterAll(removeTempDirs);
