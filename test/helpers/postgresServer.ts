import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findPostgresBin } from './prerequisites.js';

/** The server test/globalSetup.ts starts for the suite: its URL, and the folder where it says it is up. */
export interface SuitePostgres {
  adminUrl: string;
  dir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    suitePostgres: SuitePostgres | null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A PostgreSQL binary's command line; as root, as the `postgres` user (the server refuses root). */
function commandLine(bin: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

async function run(bin: string, args: string[]): Promise<void> {
  await promisify(execFile)(...commandLine(bin, args));
}

/**
 * Starts a throwaway server from the machine's PostgreSQL binaries, in the background: the URL and
 * folder are known at once; `ready` settles when it is up (and writes `ready` or `failed` in the folder);
 * `stop`, once `ready` has settled, stops it and removes its folder.
 * Undefined when the machine has no PostgreSQL.
 */
export async function launchPostgres(): Promise<
  (SuitePostgres & { ready: Promise<void>; stop: () => void }) | undefined
> {
  const bin = findPostgresBin();
  if (!bin) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'collect-pg-'));
  if (process.getuid?.() === 0) {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    chownSync(dir, Number(uid), Number(gid));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const ready = (async () => {
    await run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'collect', '--no-sync']);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await run(join(bin, 'pg_ctl'), ['-D', data, '-w', '-l', join(dir, 'log'), '-o', options, 'start']);
  })().then(
    () => writeFileSync(join(dir, 'ready'), ''),
    (error: unknown) => {
      writeFileSync(join(dir, 'failed'), String(error));
      throw error;
    },
  );
  ready.catch(() => undefined); // a test that needs the server reads the failure from the folder
  const stop = (): void => {
    if (existsSync(join(data, 'postmaster.pid'))) {
      spawnSync(...commandLine(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']), {
        stdio: 'ignore',
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { adminUrl: `postgres://collect@127.0.0.1:${port}/postgres`, dir, ready, stop };
}
