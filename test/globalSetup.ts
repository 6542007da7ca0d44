import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Touched after each successful build: a build that failed (a type error) is never taken as current. */
const stamp = join(root, 'node_modules', '.cache', 'collect', 'dist-built');

/** The newest modification time among the sources `dist/` is built from, and the build's configuration. */
function newestSource(): number {
  let newest = Math.max(...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((file) => statSync(join(root, file)).mtimeMs));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs); // tests are not built
    }
  };
  walk(join(root, 'src'));
  return newest;
}

/**
 * End-to-end tests run the built `collect` binary: build it from the current sources, unless
 * the last successful build is newer than every source (as make would; a checkout or edit touches the file).
 */
export default function setup(): void {
  const current = existsSync(stamp) && existsSync(join(root, 'dist', 'cli', 'main.js')) && statSync(stamp).mtimeMs > newestSource();
  if (current) return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  mkdirSync(join(root, 'node_modules', '.cache', 'collect'), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
