/**
 * How a test that needs PostgreSQL or Chromium says so (test/helpers/prerequisites.ts finds them): its
 * suite is skipped where they are missing, marked so that the run counts it and says how to get them.
 */
import { describe, it, type TestAPI, type TestOptions } from 'vitest';
import { missingPrerequisites, type Prerequisite, skipNote } from './prerequisites.js';

/** Whether this worker's machine has it (looked for once per worker). */
const found = new Map<Prerequisite, boolean>();
export function has(name: Prerequisite): boolean {
  if (!found.has(name)) found.set(name, !missingPrerequisites().includes(name));
  return found.get(name)!;
}

/** `describe`, or, when `name` is missing, `describe.skip` marked so that the run counts its tests. */
export function describeWith(
  name: Prerequisite,
): (title: string, ...rest: [body: () => void] | [options: TestOptions, body: () => void]) => void {
  return (title, ...rest) => {
    const chosen = has(name) ? describe : describe.skip;
    const collector = rest.length === 1 ? chosen(title, rest[0]) : chosen(title, rest[0], rest[1]);
    collector.suite!.meta.prerequisite = name;
  };
}

/** `it`, or, when `name` is missing, a test that skips itself with the note the run counts. */
export function itWith(name: Prerequisite): TestAPI {
  if (has(name)) return it;
  return ((title: string) => it(title, (context) => context.skip(skipNote(name)))) as unknown as TestAPI;
}

declare module 'vitest' {
  interface TaskMeta {
    prerequisite?: Prerequisite;
  }
}
