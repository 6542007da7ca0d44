import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { launchPostgres } from './helpers/postgresServer.js';
import { ciFailure } from './helpers/prerequisites.js';
import { leftoversFailure, openRunTemp } from './helpers/runTemp.js';
import { bundleDist } from '../scripts/bundleDist.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Touched after each successful build: a build that failed (a type error) is never taken as current. */
const stamp = join(root, 'node_modules', '.cache', 'collect', 'dist-built');

/** The newest modification time among the sources `dist/` is built from, and the build's configuration. */
function newestSource(): number {
  const configs = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/bundleDist.js'];
  let newest = Math.max(...configs.map((file) => statSync(join(root, file)).mtimeMs));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      // tests are not built
      else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(root, 'src'));
  return newest;
}

/**
 * End-to-end tests run the built `collect` binary: build it from the current sources, unless
 * the last successful build is newer than every source (as make would; a checkout or edit touches the file).
 */
async function build(): Promise<void> {
  const main = join(root, 'dist', 'cli', 'main.js');
  const current = existsSync(stamp) && existsSync(main) && statSync(stamp).mtimeMs > newestSource();
  if (!current) await compile();
  // as `npm run build` does: tests run `collect` through npx and sh, by its bin (the launcher) or main.js
  for (const file of [main, join(root, 'dist', 'cli', 'collect.cjs')]) chmodSync(file, 0o755);
}

/** Compiles `dist/` and stamps the build as current once it succeeded. */
async function compile(): Promise<void> {
  const tsc = promisify(execFile)(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
    {
      cwd: root,
    },
  );
  // tsc's own messages (a type error) are what a failed build must show
  tsc.child.stdout?.pipe(process.stdout);
  tsc.child.stderr?.pipe(process.stderr);
  await tsc;
  // as `npm run build` does: the bin runs the bundle (scripts/bundleDist.js)
  await bundleDist();
  mkdirSync(join(root, 'node_modules', '.cache', 'collect'), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

/**
 * Fails at once under CI=true when PostgreSQL or Chromium is missing (elsewhere their tests are skipped and
 * counted, test/helpers/prerequisitesReporter.ts); gives the run its own temporary folder and fails at the end
 * when a test left anything in it; builds `dist/` while one PostgreSQL server starts for the whole suite
 * (test/helpers/postgres.ts waits for it in the files that use it, so the others do not); stops it at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = ciFailure();
  if (missing) throw new Error(missing);
  const temp = openRunTemp();
  const postgres = process.env.COLLECT_TEST_POSTGRES_URL ? undefined : await launchPostgres();
  project.provide('suitePostgres', postgres ? { adminUrl: postgres.adminUrl, dir: postgres.dir } : null);
  const stop = async () => {
    await postgres?.ready.catch(() => undefined);
    postgres?.stop();
    return temp.close();
  };
  try {
    await build();
  } catch (error) {
    await stop();
    throw error;
  }
  return async () => {
    const failure = leftoversFailure(await stop());
    if (failure) throw new Error(failure);
  };
}
