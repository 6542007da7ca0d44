/**
 * A reporter (vitest.config.ts) that says once, at the end of the run, how many tests were not run
 * for want of PostgreSQL or Chromium and how to get them (test/helpers/prerequisites.ts marks them).
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { PREREQUISITES, type Prerequisite, skipNote, skippedMessage } from './prerequisites.js';

/** The prerequisite a skipped test waited for: its own note, or a marked suite around it. */
function wanted(test: TestCase): Prerequisite | undefined {
  const result = test.result();
  if (result.state !== 'skipped') return undefined;
  const names = Object.keys(PREREQUISITES) as Prerequisite[];
  const byNote = names.find((name) => result.note === skipNote(name));
  if (byNote) return byNote;
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) {
    const marked = parent.meta().prerequisite;
    if (marked) return marked;
  }
  return undefined;
}

export default class PrerequisitesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped: Partial<Record<Prerequisite, number>> = {};
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const name = wanted(test);
        if (name) skipped[name] = (skipped[name] ?? 0) + 1;
      }
    }
    const message = skippedMessage(skipped);
    if (message) process.stderr.write(`\n${message}\n`);
  }
}
