/** How `collect sandbox` starts, runs a command, stops and leaves its files, as a CI job sees it. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { jobEnv, scratchProject } from './helpers/scratchProject.js';
import { tempDir } from './helpers/tempDir.js';

vi.setConfig({ testTimeout: 60_000 });

const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');
const scratch = () => tempDir('collect-life-');

/** Runs a command; `whenOutput` is called on each chunk of its standard error with what came so far. */
function start(
  file: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
  whenOutput?: (stderr: string) => void,
) {
  const child = spawn(file, args, {
    cwd: options.cwd ?? process.cwd(),
    env: jobEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    whenOutput?.(output);
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, exit, output: () => output };
}

const waitFor = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
};

/** The application's tests: one order, then waiting for a signal, which they note in a file and end on with 0. */
const patientTest = `
import { writeFileSync } from 'node:fs';
process.on('SIGTERM', () => { writeFileSync('signal.txt', 'SIGTERM'); process.exit(0); });
const answer = await fetch(process.env.COLLECT_BASE_URL + '/v2/order', { method: 'POST', headers: { \
authorization: 'Bearer k', 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'A', total_paid_value: 1, creation_datetime: '2026-01-01T00:00:00Z', user: { \
id: 'U' }, payments: [{ id: 'P' }] }) });
writeFileSync('sent.txt', String(answer.status));
setInterval(() => {}, 1000);
`;

describe('collect sandbox -- COMMAND', () => {
  it('passes a SIGTERM on to the command, waits for it, writes the report and exits 130', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'patient.mjs'), patientTest);
    const run = start(
      process.execPath,
      [CLI, 'sandbox', '--port', '0', '--report', 'report.json', '--', process.execPath, 'patient.mjs'],
      { cwd: dir },
    );
    await waitFor(() => existsSync(join(dir, 'sent.txt')));
    run.child.kill('SIGTERM');
    expect(await run.exit, run.output()).toBe(130);
    expect(readFileSync(join(dir, 'signal.txt'), 'utf8')).toBe('SIGTERM');
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary).toMatchObject({
      records: 1,
      valid: 1,
    });
  });
  it('says so when the command cannot run (exit 2), the report written', async () => {
    const dir = scratch();
    const run = start(
      process.execPath,
      [CLI, 'sandbox', '--port', '0', '--report', 'report.json', '--', 'no-such-command-here'],
      { cwd: dir },
    );
    expect(await run.exit).toBe(2);
    expect(run.output()).toContain('cannot run no-such-command-here: no such command');
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.records).toBe(0);
  });
  it('takes a command only after -- (exit 2 before it listens)', async () => {
    const run = start(process.execPath, [CLI, 'sandbox', '--port', '0', 'npm', 'test']);
    expect(await run.exit).toBe(2);
    expect(run.output()).toContain('goes after --');
    expect(run.output()).not.toContain('listening');
  });
});

describe('collect sandbox on a port that is taken', () => {
  it('says so and exits 2, leaving the report file of an earlier session as it was', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const dir = scratch();
    // A report of an earlier session (a file collect did not write is refused before the port is tried).
    const earlier = '{\n  "version": 1,\n  "summary": {}\n}\n';
    writeFileSync(join(dir, 'report.json'), earlier);
    try {
      const run = start(
        process.execPath,
        [CLI, 'sandbox', '--port', String(port), '--report', 'report.json'],
        { cwd: dir },
      );
      expect(await run.exit).toBe(2);
      expect(run.output()).toContain(`port ${port} on 127.0.0.1 is taken`);
      expect(run.output()).not.toContain('internal error');
      expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe(earlier);
    } finally {
      taken.close();
    }
  });
});

describe('collect sandbox --record', () => {
  it('refuses a log it cannot write before it listens (exit 2, not an internal error)', async () => {
    const run = start(process.execPath, [
      CLI,
      'sandbox',
      '--port',
      '0',
      '--record',
      join(scratch(), 'missing', 'requests.ndjson'),
    ]);
    expect(await run.exit).toBe(2);
    expect(run.output()).toContain('requests.ndjson: cannot be written (ENOENT)');
    expect(run.output()).not.toContain('listening');
  });
});

describe('collect sandbox --pid-file', () => {
  it(
    'refuses a file that is not a pid file, and one naming a running process, leaving both as they ' +
      'were (exit 2)',
    async () => {
      const dir = scratch();
      writeFileSync(join(dir, 'notes.txt'), 'my notes\n');
      writeFileSync(join(dir, 'running.pid'), `${process.pid}\n`);
      for (const [file, message] of [
        ['notes.txt', 'does not hold a process id'],
        ['running.pid', `process ${process.pid} named there is running`],
      ]) {
        const run = start(process.execPath, [CLI, 'sandbox', '--port', '0', '--pid-file', file!], {
          cwd: dir,
        });
        expect(await run.exit).toBe(2);
        expect(run.output()).toContain(message);
      }
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('my notes\n');
      expect(readFileSync(join(dir, 'running.pid'), 'utf8')).toBe(`${process.pid}\n`);
    },
  );
  it('holds the id of the sandbox, not of the npx that started it, and is removed when it stops', async () => {
    const dir = scratchProject({}, {});
    const run = start('npx', ['collect', 'sandbox', '--port', '0', '--pid-file', 'sandbox.pid'], {
      cwd: dir,
    });
    await waitFor(() => existsSync(join(dir, 'sandbox.pid')));
    const sandboxPid = Number(readFileSync(join(dir, 'sandbox.pid'), 'utf8'));
    expect(sandboxPid).not.toBe(run.child.pid);
    process.kill(sandboxPid, 'SIGTERM');
    expect(await run.exit).toBe(0);
    expect(existsSync(join(dir, 'sandbox.pid'))).toBe(false);
  });
});

describe('collect sandbox started through npx', () => {
  it('stops on a SIGTERM sent to npx (which ends without passing it on), with the report written', async () => {
    const dir = scratchProject({}, {});
    const run = start('npx', ['collect', 'sandbox', '--port', '0', '--report', 'report.json'], { cwd: dir });
    await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(run.output()));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output())![1]!;
    await fetch(`${url}/v2/order`, {
      method: 'PUT',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"id":"Z","status":"approved"}',
    });
    const npxEnded = new Promise((resolve) => run.child.on('exit', resolve));
    run.child.kill('SIGTERM');
    await npxEnded;
    // The sandbox holds the output pipe it inherited from npx: it is closed when the sandbox has ended too.
    await run.exit;
    expect(run.output()).toContain('collect sandbox: stopped');
    expect(
      JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).issues.map(
        (issue: { code: string }) => issue.code,
      ),
    ).toContain('unknown-order');
  });
});
