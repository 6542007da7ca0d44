/**
 * The tests' prerequisites (test/helpers/prerequisites.ts) looked for on a machine without them: a PATH
 * and overrides where initdb and Chromium cannot be found.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ciFailure,
  findChromium,
  findPostgresBin,
  missingPrerequisites,
  skippedMessage,
} from './helpers/prerequisites.js';
import { tempDir } from './helpers/tempDir.js';

/** A machine with neither: nothing on PATH, the overrides pointing at nothing. */
const bare = (more: Record<string, string> = {}) => ({
  PATH: tempDir('collect-bare-path-'),
  COLLECT_TEST_POSTGRES_BIN: '/nonexistent',
  COLLECT_TEST_CHROMIUM: '/nonexistent/chromium',
  ...more,
});

/** An executable file named `name` in a fresh folder. */
function fakeBinary(name: string): string {
  const dir = tempDir('collect-bin-');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), '#!/bin/sh\n');
  chmodSync(join(dir, name), 0o755);
  return dir;
}

describe('the tests’ prerequisites', () => {
  it('finds neither where they are not, and names both missing', () => {
    expect(findPostgresBin(bare())).toBeUndefined();
    expect(findChromium(bare())).toBeUndefined();
    expect(missingPrerequisites(bare())).toEqual(['postgres', 'chromium']);
  });

  it('finds initdb on PATH or by COLLECT_TEST_POSTGRES_BIN, and Chromium by COLLECT_TEST_CHROMIUM', () => {
    const bin = fakeBinary('initdb');
    expect(findPostgresBin({ PATH: `/nonexistent:${bin}` })).toBe(bin);
    expect(findPostgresBin({ PATH: '', COLLECT_TEST_POSTGRES_BIN: bin })).toBe(bin);
    const chromium = join(fakeBinary('chromium'), 'chromium');
    expect(findChromium({ COLLECT_TEST_CHROMIUM: chromium })).toBe(chromium);
    // a server given by URL needs no binaries
    expect(missingPrerequisites(bare({ COLLECT_TEST_POSTGRES_URL: 'postgres://x@127.0.0.1/y' }))).toEqual([
      'chromium',
    ]);
  });

  it('under CI=true, a missing one is a failure naming it and how to get it; outside CI, none', () => {
    expect(ciFailure(bare())).toBeUndefined();
    expect(ciFailure(bare({ CI: 'false' }))).toBeUndefined();
    const failure = ciFailure(bare({ CI: 'true' }));
    expect(failure).toContain('nothing is skipped in CI');
    expect(failure).toContain("PostgreSQL's server binaries (initdb): apt-get install postgresql");
    expect(failure).toContain('Chromium (/usr/bin/chromium): apt-get install chromium');
    expect(
      ciFailure({ ...bare({ CI: 'true' }), COLLECT_TEST_POSTGRES_BIN: fakeBinary('initdb') }),
    ).not.toContain('PostgreSQL');
  });

  it('says in one message how many tests were not run, for want of what, and how to get each', () => {
    expect(skippedMessage({})).toBeUndefined();
    expect(skippedMessage({ postgres: 0 })).toBeUndefined();
    const message = skippedMessage({ postgres: 68, chromium: 5 })!;
    expect(message.split('\n')[0]).toBe(
      "73 tests were not run (68 need PostgreSQL's server binaries (initdb), 5 need Chromium (/usr/bin/chromium))," +
        ' not found on this machine. To run them:',
    );
    expect(message).toContain('COLLECT_TEST_POSTGRES_BIN=<the folder of initdb>');
    expect(message).toContain('COLLECT_TEST_CHROMIUM=<the path of a Chromium>');
    expect(skippedMessage({ chromium: 2 })).not.toContain('PostgreSQL');
  });
});
