import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Gives the whole run its own temporary folder (TMPDIR, which the workers and every collect they
 * start inherit), so that what a test leaves there is seen: `close` removes it and returns the names
 * of what was left in it.
 */
export function openRunTemp(): { dir: string; close: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'collect-test-run-'));
  // Others may pass through, not list: the throwaway PostgreSQL runs as the `postgres` user in a folder of its own here
  chmodSync(dir, 0o711);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return {
    dir,
    close: () => {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      const left = readdirSync(dir);
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      return left;
    },
  };
}

/** The failure for what tests left in the temporary folder; undefined when they left nothing. */
export function leftoversFailure(entries: string[]): string | undefined {
  // Node's compile cache (the bin enables it): Node's own, shared by runs, not a test's leftover
  const left = entries.filter((name) => name !== 'node-compile-cache');
  if (left.length === 0) return undefined;
  const shown = left.slice(0, 20).join(', ') + (left.length > 20 ? `, and ${left.length - 20} more` : '');
  return (
    `the tests left ${left.length} entries in the temporary folder (removed now): ${shown}.` +
    ' Make temporary folders with tempDir() of test/helpers/tempDir.ts, which removes them after the file.'
  );
}
