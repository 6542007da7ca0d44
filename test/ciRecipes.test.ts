/** The README's CI recipes, run as written (through `npx --no-install collect`) in an application's project. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { freePort, junit, onPort, readmeRecipes, runJob } from './helpers/readmeRecipes.js';
import { scratchProject } from './helpers/scratchProject.js';

// Each job starts npx, the sandbox and npm test: seconds each on a busy machine.
vi.setConfig({ testTimeout: 90_000 });

const recipes = readmeRecipes();

/**
 * The application's tests: one order (mode pass and fail, which then fails), or an update of an order never
 * created (broken).
 */
const appTest = `
const mode = process.env.APP_MODE;
const base = process.env.COLLECT_BASE_URL;
const headers = { authorization: 'Bearer app-key', 'content-type': 'application/json' };
const order = { id: 'ORD-1', total_paid_value: 100, creation_datetime: '2026-01-01T00:00:00Z', user: { id: \
'U-1' }, payments: [{ id: 'P-1' }] };
const answer = mode === 'broken'
  ? await fetch(base + '/v2/order', { method: 'PUT', headers, body: JSON.stringify({ id: 'ORD-404', status: \
'approved' }) })
  : await fetch(base + '/v2/order', { method: 'POST', headers, body: JSON.stringify(order) });
console.log('app test: the service answered', answer.status);
process.exit(mode === 'fail' ? 4 : 0);
`;

const project = () => scratchProject({ 'app.test.mjs': appTest }, { test: 'node app.test.mjs' });

describe('the GitHub Actions recipe', () => {
  const run = recipes.github;
  // GitHub runs a step's script with bash -e -o pipefail.
  const job = (mode: string) => {
    const dir = project();
    return runJob(run, dir, { APP_MODE: mode }, ['-eo', 'pipefail']).then((result) => ({ ...result, dir }));
  };

  it('passes when the tests pass and every request keeps the rules, with the JUnit report written', async () => {
    const { code, output, dir } = await job('pass');
    expect(output).toContain('app test: the service answered 201');
    expect(code, output).toBe(0);
    expect(junit(dir).failures).toBe(0);
    expect(output).toContain('1 request judged, 0 with errors');
  });
  it('fails with the code of the tests when they fail, the report written all the same', async () => {
    const { code, output, dir } = await job('fail');
    expect(code, output).toBe(4);
    expect(junit(dir).failures).toBe(0);
  });
  it('fails with 1 when the tests pass but a request broke a rule, named in the report', async () => {
    const { code, output, dir } = await job('broken');
    expect(code, output).toBe(1);
    const report = junit(dir);
    expect(report.failures).toBe(1);
    expect(report.text).toContain('unknown-order');
  });
});

describe('the GitLab CI recipe', () => {
  const script = recipes.gitlab;
  // The scratch project is installed already: `npm ci` would fetch nothing else.
  const lines = script.filter((line) => line !== 'npm ci');
  it('installs, then runs the tests judged by the sandbox', () => {
    expect(script.filter((line) => !lines.includes(line))).toEqual(['npm ci']);
    expect(lines).toHaveLength(1);
  });
  // GitLab runs the script's lines in one shell that stops at the first that fails.
  for (const [mode, expected] of [
    ['pass', 0],
    ['fail', 4],
  ] as const) {
    it(
      `ends the job with ${expected} when the application's tests ${mode}, with the JUnit report ` +
        `written`,
      async () => {
        const dir = project();
        const { code, output } = await runJob(lines.join('\n'), dir, { APP_MODE: mode }, ['-eo', 'pipefail']);
        expect(code, output).toBe(expected);
        expect(junit(dir).failures).toBe(0);
        expect(output).toContain('1 request judged');
      },
    );
  }
});

describe('the background recipe (--pid-file)', () => {
  // As written but for the port: a free one, which the application's tests are told (8787 may be taken on a
  // shared machine).
  const script = recipes.background;
  for (const [mode, expected] of [
    ['fail', 4],
    ['broken', 1],
  ] as const) {
    it(
      `ends with ${expected} when the tests ` +
        `${mode === 'fail' ? 'fail' : 'pass but a request broke a rule'}, the report written and the ` +
        `pid file gone`,
      async () => {
        const dir = project();
        const port = await freePort();
        const { code, output } = await runJob(
          onPort(script, port),
          dir,
          { APP_MODE: mode, COLLECT_BASE_URL: `http://127.0.0.1:${port}` },
          [],
        );
        expect(code, output).toBe(expected);
        expect(junit(dir).failures).toBe(mode === 'broken' ? 1 : 0);
        expect(() => readFileSync(join(dir, 'sandbox.pid'))).toThrow(/ENOENT/);
      },
    );
  }
});
