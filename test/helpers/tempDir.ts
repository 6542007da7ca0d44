import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folders this worker made and has not removed yet: test/helpers/tempCleanup.ts removes them after each file. */
const made = new Set<string>();

/**
 * A fresh folder in the temporary folder (`prefix` and 6 random characters, as mkdtemp), removed
 * with everything in it when the test file that made it ends. Every test makes its temporary
 * folders with this: test/globalSetup.ts fails the run when anything else is left there.
 */
export function tempDir(prefix = 'collect-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder `tempDir` made so far; called after each test file (test/helpers/tempCleanup.ts). */
export function removeTempDirs(): void {
  for (const dir of made) {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    made.delete(dir);
  }
}
