import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './tempDir.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * An application's project with collect installed as `npm install file:<this repository>` installs
 * it (checked by hand: a link to the repository and its bin in node_modules/.bin), made without npm
 * so it is offline and quick: `npx collect` in it resolves the built dist/ as in a user's project.
 */
export function scratchProject(files: Record<string, string>, scripts: Record<string, string>): string {
  const dir = tempDir('collect-app-');
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'app', version: '1.0.0', private: true, scripts, dependencies: { collect: `file:${root}` } }, null, 2)}\n`,
  );
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(root, join(dir, 'node_modules', 'collect'));
  symlinkSync(join('..', 'collect', 'dist', 'cli', 'main.js'), join(dir, 'node_modules', '.bin', 'collect'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The environment of a CI job: no npm variables of the test runner's own npx, no update check. */
export function jobEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    ...extra,
  };
}
