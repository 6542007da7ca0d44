/**
 * The package as users get it: `npm pack` of this checkout once, installed with npm into applications
 * outside the checkout (the registry's stand-in is the tarball), the README's CI recipes run there as
 * written, the global install run by its bare name, the library imported with its types.
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, junit, onPort, readmeRecipes, runJob } from './helpers/readmeRecipes.js';
import { jobEnv, scratchProject } from './helpers/scratchProject.js';

// npm pack and npm install: seconds each on a busy machine, offline from npm's cache.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const root = resolve('.');
const run = promisify(execFile);
const npm = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund'], { cwd, env: jobEnv(env) });
const recipes = readmeRecipes();

const order =
  `{ id: 'ORD-1', total_paid_value: 100, creation_datetime: '2026-01-01T00:00:00Z', user: { id: ` +
  `'U-1' }, payments: [{ id: 'P-1' }] }`;
/**
 * The application's tests: they post one order to the service they are given, a valid one or one whose total
 * is text.
 */
const appTest = (body: string) => `
const answer = await fetch(process.env.COLLECT_BASE_URL + '/v2/order', {
  method: 'POST',
  headers: { authorization: 'Bearer app-key', 'content-type': 'application/json' },
  body: JSON.stringify(${body}),
});
console.log('app test: the service answered', answer.status);
`;

let work = '';
let clean = '';
let broken = '';
let files: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'collect-package-'));
  // dist/ is built by test/globalSetup.ts: the pack takes it as it is.
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], root);
  const [tarball] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  files = tarball!.files.map((file) => file.path);
  clean = join(work, 'clean-app');
  mkdirSync(clean);
  writeFileSync(
    join(clean, 'package.json'),
    JSON.stringify({
      name: 'clean-app',
      version: '1.0.0',
      private: true,
      scripts: { test: 'node app.test.mjs' },
    }),
  );
  writeFileSync(join(clean, 'app.test.mjs'), appTest(order));
  await npm(['install', '--save-dev', join(work, tarball!.filename)], clean);
  // The broken app: the same install, its test sending an order whose total is text.
  broken = join(work, 'broken-app');
  cpSync(clean, broken, { recursive: true, verbatimSymlinks: true });
  writeFileSync(join(broken, 'app.test.mjs'), appTest(`{ ...${order}, total_paid_value: 'a lot' }`));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it(
    'holds the built code, its declarations, the launcher, the worker files and the report formats, ' +
      'and no tests, sources or fixtures',
    () => {
      for (const needed of ['dist/cli/collect.cjs', 'dist/cli/main.js', 'dist/index.js', 'dist/index.d.ts'])
        expect(files).toContain(needed);
      expect(files).toContain('dist/parallel/pieceWorker.js');
      expect(files).toContain('dist/fast/stateWriterWorker.js');
      expect(files).toContain('LICENSE');
      // The acquirers' report formats are data the command reads (collect chargebacks --formats).
      expect(files).toContain('presets/chargebacks/stripe-disputes.yaml');
      const other = files.filter(
        (path) => !/^(dist\/.+\.(js|d\.ts|cjs)|presets\/chargebacks\/[a-z0-9-]+\.yaml)$/.test(path),
      );
      expect(other.sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
      expect(files.filter((path) => /\.test\.|^dist\/bin\//.test(path))).toEqual([]);
    },
  );
});

describe('npm install --save-dev of the tarball in an application', () => {
  it('compiles nothing: no .node file, no package with an install script', async () => {
    const nodeFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? nodeFiles(join(dir, entry.name))
          : entry.name.endsWith('.node')
            ? [entry.name]
            : [],
      );
    expect(nodeFiles(join(clean, 'node_modules'))).toEqual([]);
    const { readFile } = await import('node:fs/promises');
    const lock = JSON.parse(await readFile(join(clean, 'node_modules', '.package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    expect(Object.keys(lock.packages).filter((name) => lock.packages[name]!.hasInstallScript)).toEqual([]);
  });

  it('runs collect through npx --no-install', async () => {
    const { stdout } = await run('npx', ['--no-install', 'collect', '--version'], {
      cwd: clean,
      env: jobEnv(),
    });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is laid out as test/helpers/scratchProject.ts lays out its applications', () => {
    const scratch = scratchProject({}, {});
    try {
      for (const dir of [clean, scratch])
        expect(existsSync(join(dir, 'node_modules', '@order-collect', 'collect'))).toBe(true);
      const bin = (dir: string) => readlinkSync(join(dir, 'node_modules', '.bin', 'collect'));
      expect(bin(scratch)).toBe(bin(clean));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('imports the library by its name, with its types', async () => {
    writeFileSync(
      join(clean, 'lib.mts'),
      `import { orderSchema, validateRecord, resources, type Order } from '@order-collect/collect';
const order: Order = orderSchema.parse(${order});
console.log(typeof orderSchema.parse, validateRecord(resources.order, order, { now: new Date() }).length);
`,
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--strict', '--module', 'nodenext', '--target', 'es2022', '--outDir', 'out', 'lib.mts'];
    await run(process.execPath, [tsc, ...flags], { cwd: clean });
    const { stdout } = await run(process.execPath, ['out/lib.mjs'], { cwd: clean });
    expect(stdout.trim()).toBe('function 0');
  });
});

describe("the README's CI recipes, in the application's repository", () => {
  // GitHub runs a step's script with bash -e -o pipefail.
  it(
    'GitHub Actions: the clean app passes with a JUnit file, the broken one fails with the finding ' +
      'in it',
    async () => {
      const passed = await runJob(recipes.github, clean, {}, ['-eo', 'pipefail']);
      expect(passed.code, passed.output).toBe(0);
      expect(junit(clean).failures).toBe(0);
      const failed = await runJob(recipes.github, broken, {}, ['-eo', 'pipefail']);
      expect(failed.code, failed.output).toBe(1);
      expect(junit(broken).failures).toBe(1);
      expect(junit(broken).text).toContain('total_paid_value');
    },
  );

  // The whole script, its npm ci too: the lock file names the tarball, so npm ci installs it again
  // (from npm's cache: checking every package with the registry here takes minutes).
  it('GitLab CI: npm ci, then the clean app passes with a JUnit file and the broken one fails', async () => {
    for (const dir of [clean, broken]) rmSync(join(dir, 'collect-report.xml'), { force: true });
    const offline = { npm_config_prefer_offline: 'true' };
    const passed = await runJob(recipes.gitlab.join('\n'), clean, offline, ['-eo', 'pipefail']);
    expect(passed.code, passed.output).toBe(0);
    expect(junit(clean).failures).toBe(0);
    const failed = await runJob(recipes.gitlab.join('\n'), broken, offline, ['-eo', 'pipefail']);
    expect(failed.code, failed.output).toBe(1);
    expect(junit(broken).text).toContain('total_paid_value');
  });

  it('the background form: ends with 0 for the clean app and 1 for the broken one, the pid file gone', async () => {
    for (const [dir, expected] of [
      [clean, 0],
      [broken, 1],
    ] as const) {
      rmSync(join(dir, 'collect-report.xml'), { force: true });
      const port = await freePort();
      const env = { COLLECT_BASE_URL: `http://127.0.0.1:${port}` };
      const { code, output } = await runJob(onPort(recipes.background, port), dir, env, []);
      expect(code, output).toBe(expected);
      expect(junit(dir).failures).toBe(expected);
      expect(existsSync(join(dir, 'sandbox.pid'))).toBe(false);
    }
  });
});

describe('npm install -g of the tarball', () => {
  it('puts collect on PATH by its bare name', async () => {
    const prefix = join(work, 'global');
    const tarball = join(
      work,
      readdirSync(work).find((name) => name.endsWith('.tgz'))!,
    );
    await npm(['install', '-g', tarball], work, { npm_config_prefix: prefix });
    const path = `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`;
    const { stdout } = await run('collect', ['--version'], { cwd: work, env: jobEnv({ PATH: path }) });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
