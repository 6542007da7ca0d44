import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A real PostgreSQL server for the tests, and a fresh database in it per call of `database()`. */
export interface TestPostgres {
  database: () => Promise<string>;
  stop: () => void;
}

function binDir(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return join(onPath, '..');
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return undefined;
  const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(debian, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary; as root, as the `postgres` user (the server refuses to run as root). */
function run(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(command, argv, { stdio: 'pipe' });
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

/**
 * COLLECT_TEST_POSTGRES_URL when set (a server CI or a developer runs); otherwise a throwaway
 * server started here from the machine's PostgreSQL binaries. Null only when neither exists and
 * CI is unset: in CI a missing server fails the tests, never skips them.
 */
export async function startTestPostgres(): Promise<TestPostgres | null> {
  const given = process.env.COLLECT_TEST_POSTGRES_URL;
  if (given) return { database: () => freshDatabase(given), stop: () => undefined };
  const bin = binDir();
  if (!bin) {
    if (process.env.CI) throw new Error('no PostgreSQL server for the tests: set COLLECT_TEST_POSTGRES_URL or install PostgreSQL (.ci/run does)');
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'collect-pg-'));
  if (process.getuid?.() === 0) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'collect', '--no-sync']);
  run(join(bin, 'pg_ctl'), ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  const adminUrl = `postgres://collect@127.0.0.1:${port}/postgres`;
  return {
    database: () => freshDatabase(adminUrl),
    stop: () => run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']),
  };
}
