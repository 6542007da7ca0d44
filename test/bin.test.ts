import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** The built binary, as users and scripts run it (vitest's global setup builds it). */
function collect(args: string[], input?: string, env: Record<string, string> = {}) {
  const result = spawnSync(
    process.execPath,
    [
      'dist/cli/main.js',
      ...args,
      ...(['schema', 'template', 'rules'].includes(args[0] ?? '') ? [] : ['--no-state']),
    ],
    {
      input,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', ...env },
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the collect binary', () => {
  it('sets exit code 1 for invalid records and prints the report without colour in a pipe', () => {
    const { code, stdout } = collect(['status', 'fixtures/status/invalid.csv', '--dry-run']);
    expect(code).toBe(1);
    expect(stdout).toContain('fixtures/status/invalid.csv:2');
    expect(stdout).not.toContain('\u001b[');
  });
  it('honours NO_COLOR even when colour is forced', () => {
    const forced = collect(['status', 'fixtures/status/invalid.csv', '--dry-run'], undefined, {
      FORCE_COLOR: '1',
    });
    expect(forced.stdout).toContain('\u001b[');
    const off = collect(['status', 'fixtures/status/invalid.csv', '--dry-run'], undefined, {
      FORCE_COLOR: '1',
      NO_COLOR: '1',
    });
    expect(off.stdout).not.toContain('\u001b[');
  });
  it('reads piped standard input and writes only the JSON document to stdout', () => {
    const { code, stdout, stderr } = collect(
      ['status', '--input-format', 'ndjson', '--dry-run', '--format', 'json'],
      '{"id":"A","status":"approved"}\n',
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout).summary.records).toBe(1);
    expect(stderr).toBe('');
  });
  it('exits 2 without a stack trace for a missing file', () => {
    const { code, stderr } = collect(['order', 'nope.csv', '--dry-run']);
    expect(code).toBe(2);
    expect(stderr).toContain('nope.csv: no such file');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
  it(
    'starts a dry run without loading what only sending, a PostgreSQL state or --map need (undici, ' +
      'pg, yaml, luxon)',
    () => {
      // A synchronous resolve hook (node:module registerHooks; Node 26 deprecates register) names
      // each of those packages as it is imported.
      const hook =
        "import { registerHooks } from 'node:module'; registerHooks({ resolve(s, c, next) { " +
        "if (/^(undici|pg|yaml|luxon)$/.test(s)) process.stderr.write('loaded ' + s + '\\n'); return next(s, c); } });";
      const register = `data:text/javascript,${encodeURIComponent(hook)}`;
      const run = (args: string[]) =>
        spawnSync(
          process.execPath,
          ['--import', register, 'dist/cli/main.js', ...args, '--dry-run', '--no-state'],
          { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
        );
      const plain = run(['order', 'fixtures/order/valid.csv']);
      expect(plain.status).toBe(0);
      expect(plain.stderr).toBe('');
      const mapped = run(['backfill', 'fixtures/marketplace', '--map', 'fixtures/marketplace/mapping.yaml']);
      expect(mapped.stderr).toContain('loaded yaml');
      expect(mapped.stderr).toContain('loaded luxon');
    },
  );
});
