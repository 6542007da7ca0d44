/**
 * The PostgreSQL password of --state / COLLECT_STATE is never shown or stored: messages, the lock table's
 * command line, errors.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { startTestPostgres, type TestPostgres } from './helpers/postgres.js';
import { tempDir } from './helpers/tempDir.js';
import { itWith } from './helpers/withPrerequisite.js';

const server: TestPostgres | null = await startTestPostgres();
afterAll(() => server?.stop());
const withPostgres = () => itWith('postgres');

const env = { COLLECT_API_KEY: 'k-12345678' };
const PASSWORD = 'pg-s3cret-9f2c';
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** The test server trusts every login: any password is accepted, so one can be put in the URL. */
function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = PASSWORD;
  return parsed.toString();
}

describe('the password of a PostgreSQL state', () => {
  withPostgres()(
    'is masked in the lock table\'s command line and in the "in use" message a second run prints',
    async () => {
      const url = withPassword(await server!.database());
      // Holds the first request until the test ends, so the first run holds the lock.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const http = await startServer(async () => {
        await held;
        return { status: 201, body: {} };
      });
      closers.push(http.close);
      closers.push(() => release());
      const input = join(tempDir('collect-pg-credentials-'), 'order.ndjson');
      writeFileSync(input, nd(orderRecord('ORD-1')));
      const child = spawn(
        process.execPath,
        [
          'dist/cli/main.js',
          'order',
          input,
          '--base-url',
          http.url,
          '--state',
          url,
          '--retries',
          '0',
          '--timeout',
          '600000',
        ],
        { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' },
      );
      closers.push(() => void child.kill('SIGKILL'));
      while (http.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rows } = await admin.query<{ command: string }>('SELECT command FROM collect_run_locks');
      await admin.end();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.command).toContain('--state postgres://collect:***@127.0.0.1');
      expect(rows[0]!.command).not.toContain(PASSWORD);
      const second = await runCli(['order', input, '--base-url', http.url, '--state', url], { env });
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('is in use by another run');
      expect(second.stderr).not.toContain(PASSWORD);
    },
  );

  it('given as ?password= is masked in the error that says the state cannot be reached', async () => {
    const { code, stderr } = await runCli([
      'order',
      'fixtures/order/valid.csv',
      '--dry-run',
      '--state',
      `postgres://collect@127.0.0.1:9/collect?password=${PASSWORD}`,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'nothing answers at the state postgres://collect@127.0.0.1:9/collect?password=***',
    );
    expect(stderr).not.toContain(PASSWORD);
  });
});
