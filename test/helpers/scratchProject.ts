import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './tempDir.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
};

/**
 * An application's project with collect installed as `npm install --save-dev` of its tarball lays it
 * out (test/packageInstall.test.ts holds the two layouts equal): the package under its name in
 * node_modules (here a link to this repository) and its bin in node_modules/.bin, linked to the file
 * package.json's bin names. Made without npm so it is offline and quick: `npx --no-install collect`
 * in it runs the built dist/ through the launcher users run.
 */
export function scratchProject(files: Record<string, string>, scripts: Record<string, string>): string {
  const dir = tempDir('collect-app-');
  const devDependencies = { [manifest.name]: `file:${root}` };
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'app', version: '1.0.0', private: true, scripts, devDependencies }, null, 2)}\n`,
  );
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  const installed = join(dir, 'node_modules', manifest.name);
  mkdirSync(dirname(installed), { recursive: true });
  symlinkSync(root, installed);
  for (const [command, file] of Object.entries(manifest.bin))
    symlinkSync(
      relative(join(dir, 'node_modules', '.bin'), join(installed, file)),
      join(dir, 'node_modules', '.bin', command),
    );
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
    // The machine's way to the registry (a proxy, its certificate authority), as a CI runner has it.
    ...Object.fromEntries(
      [
        'NODE_EXTRA_CA_CERTS',
        'HTTPS_PROXY',
        'HTTP_PROXY',
        'NO_PROXY',
        'https_proxy',
        'http_proxy',
        'no_proxy',
      ]
        .filter((name) => process.env[name] !== undefined)
        .map((name) => [name, process.env[name]!]),
    ),
    ...extra,
  };
}
