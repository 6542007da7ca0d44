import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { launchPostgres, type SuitePostgres } from './postgresServer.js';
import { PREREQUISITES } from './prerequisites.js';

/** A real PostgreSQL server for the tests, and a fresh database in it per call of `database()`. */
export interface TestPostgres {
  database: () => Promise<string>;
  stop: () => void;
}

async function freshDatabase(adminUrl: string): Promise<string> {
  const name = `collect_test_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** What a test run does without a server: fails in CI (never skips there), skips elsewhere. */
function noServer(): null {
  if (process.env.CI) {
    throw new Error(
      `no PostgreSQL server for the tests: ${PREREQUISITES.postgres.how} (.ci/run installs it)`,
    );
  }
  return null;
}

/** Waits for the suite's server to say it is up; each test file's module waits at most this once. */
async function whenUp(suite: SuitePostgres): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (existsSync(join(suite.dir, 'ready'))) return;
    if (existsSync(join(suite.dir, 'failed'))) {
      throw new Error(
        `the suite's PostgreSQL did not start: ${readFileSync(join(suite.dir, 'failed'), 'utf8')}`,
      );
    }
    if (Date.now() > deadline)
      throw new Error(`the suite's PostgreSQL in ${suite.dir} did not start within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * COLLECT_TEST_POSTGRES_URL when set (a server CI or a developer runs); otherwise the throwaway
 * server test/globalSetup.ts started for the whole suite (one server, a fresh database per test),
 * or, when run without it, one started here. Null only when the machine has no PostgreSQL and CI is unset.
 */
export async function startTestPostgres(): Promise<TestPostgres | null> {
  const given = process.env.COLLECT_TEST_POSTGRES_URL;
  if (given) return { database: () => freshDatabase(given), stop: () => undefined };
  const suite = inject('suitePostgres');
  if (suite) {
    await whenUp(suite);
    return { database: () => freshDatabase(suite.adminUrl), stop: () => undefined };
  }
  const own = await launchPostgres();
  if (!own) return noServer();
  await own.ready;
  return { database: () => freshDatabase(own.adminUrl), stop: own.stop };
}
