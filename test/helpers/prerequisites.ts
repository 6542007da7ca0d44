/**
 * What some tests need of the machine beyond `npm ci`: PostgreSQL's server binaries (a throwaway
 * server, test/helpers/postgresServer.ts) and Chromium (test/htmlReport.test.ts). Found, or their tests
 * are skipped and the run says so once (test/helpers/prerequisitesReporter.ts); under CI=true a missing
 * one fails the run (test/globalSetup.ts). Every test that needs one is declared with test/helpers/withPrerequisite.ts.
 */
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Prerequisite = 'postgres' | 'chromium';
type Env = Record<string, string | undefined>;

/** What each one is, and how a developer gets it (the variables are read by the finders below). */
export const PREREQUISITES: Record<Prerequisite, { what: string; how: string }> = {
  postgres: {
    what: "PostgreSQL's server binaries (initdb)",
    how:
      'apt-get install postgresql, or COLLECT_TEST_POSTGRES_BIN=<the folder of initdb>,' +
      ' or COLLECT_TEST_POSTGRES_URL=<a server to make test databases in>',
  },
  chromium: {
    what: 'Chromium (/usr/bin/chromium)',
    how: 'apt-get install chromium, or COLLECT_TEST_CHROMIUM=<the path of a Chromium>',
  },
};

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder of PostgreSQL's initdb and pg_ctl: COLLECT_TEST_POSTGRES_BIN when set, else PATH's, else
 * Debian's newest.
 */
export function findPostgresBin(env: Env = process.env): string | undefined {
  const given = env.COLLECT_TEST_POSTGRES_BIN;
  if (given !== undefined) return executable(join(given, 'initdb')) ? given : undefined;
  const onPath = (env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .find((dir) => executable(join(dir, 'initdb')));
  if (onPath) return onPath;
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return undefined;
  const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(debian, v, 'bin')).find((dir) => executable(join(dir, 'initdb')));
}

/** The Chromium playwright-core drives: COLLECT_TEST_CHROMIUM when set, else Debian's. */
export function findChromium(env: Env = process.env): string | undefined {
  const path = env.COLLECT_TEST_CHROMIUM ?? '/usr/bin/chromium';
  return executable(path) ? path : undefined;
}

/** The prerequisites this machine lacks (a PostgreSQL server given by URL needs no binaries). */
export function missingPrerequisites(env: Env = process.env): Prerequisite[] {
  const missing: Prerequisite[] = [];
  if (!env.COLLECT_TEST_POSTGRES_URL && !findPostgresBin(env)) missing.push('postgres');
  if (!findChromium(env)) missing.push('chromium');
  return missing;
}

const lines = (missing: Prerequisite[]) =>
  missing.map((name) => `  - ${PREREQUISITES[name].what}: ${PREREQUISITES[name].how}`).join('\n');

/**
 * Under CI=true nothing is skipped: the failure that names what is missing; undefined when nothing is, or
 * outside CI.
 */
export function ciFailure(env: Env = process.env): string | undefined {
  const missing = missingPrerequisites(env);
  if (!env.CI || env.CI === 'false' || missing.length === 0) return undefined;
  return (
    `CI is set and the tests cannot find what they need (nothing is skipped in CI; .ci/run installs ` +
    `them):\n${lines(missing)}`
  );
}

/** The run's one line about tests it did not run for want of a prerequisite, with how to get each. */
export function skippedMessage(skipped: Partial<Record<Prerequisite, number>>): string | undefined {
  const names = (Object.keys(PREREQUISITES) as Prerequisite[]).filter((name) => (skipped[name] ?? 0) > 0);
  if (names.length === 0) return undefined;
  const total = names.reduce((sum, name) => sum + (skipped[name] ?? 0), 0);
  const counts = names.map((name) => `${skipped[name]} need ${PREREQUISITES[name].what}`).join(', ');
  return `${total} tests were not run (${counts}), not found on this machine. To run them:\n${lines(names)}`;
}

/** The note of a test skipped for want of `name`: how test/helpers/prerequisitesReporter.ts counts it. */
export const skipNote = (name: Prerequisite) => `needs ${PREREQUISITES[name].what}`;
