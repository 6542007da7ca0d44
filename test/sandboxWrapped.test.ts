/** What `collect sandbox -- COMMAND` gives the command, and what it leaves behind (issue 39: H4, L5). */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { jobEnv } from './helpers/scratchProject.js';
import { tempDir } from './helpers/tempDir.js';

vi.setConfig({ testTimeout: 60_000 });

const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');

function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: jobEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
}

const KEY = 'prod-key-0123456789abcdef';

/** An application's tests that note their environment, then print a key they found (in a fixture, say) in every way. */
const leakyTest = `
import { readFileSync, writeFileSync } from 'node:fs';
writeFileSync('env.json', JSON.stringify(process.env));
const key = readFileSync('key.txt', 'utf8').trim();
process.stdout.write('key: ' + key + '\\n');
process.stdout.write('base64: ' + Buffer.from('Bearer ' + key).toString('base64') + '\\n');
process.stdout.write('cut: ' + key.slice(0, 10));
await new Promise((resolve) => setTimeout(resolve, 50));
process.stdout.write(key.slice(10) + '\\n');
process.stderr.write('err: ' + key + '\\n');
`;

describe('collect sandbox --upstream URL -- COMMAND', () => {
  it('never gives the command the upstream key, and redacts it from what the command prints', async () => {
    const upstream = await startServer(() => ({ status: 200, body: {} }));
    onTestFinished(upstream.close);
    const dir = tempDir('collect-wrap-');
    writeFileSync(join(dir, 'leaky.mjs'), leakyTest);
    writeFileSync(join(dir, 'key.txt'), KEY);
    const result = await run(
      ['sandbox', '--port', '0', '--upstream', upstream.url, '--', process.execPath, 'leaky.mjs'],
      dir,
      { COLLECT_API_KEY: KEY, DEPLOY_TOKEN: `x${KEY}` },
    );
    expect(result.code).toBe(0);
    const env = JSON.parse(readFileSync(join(dir, 'env.json'), 'utf8')) as Record<string, string>;
    expect(env.COLLECT_API_KEY).toBe('collect-sandbox-key');
    expect(env.COLLECT_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Object.values(env).filter((value) => value.includes(KEY))).toEqual([]);
    expect(result.output).toContain('key: [REDACTED]');
    expect(result.output).toContain('cut: [REDACTED]');
    expect(result.output).toContain('err: [REDACTED]');
    expect(result.output).not.toContain(KEY);
    const base64 = Buffer.from(`Bearer ${KEY}`).toString('base64');
    expect(result.output).not.toContain(base64.slice(12, 32));
  });
});

/** Whether a process runs: not gone, and not a zombie (ended, waiting for a parent that may never reap it). */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('collect sandbox -- COMMAND that leaves a process running', () => {
  it.skipIf(!existsSync('/proc/self/stat'))(
    'ends it with the command: nothing outlives the sandbox',
    async () => {
      const dir = tempDir('collect-wrap-');
      // Its output to nowhere: a process left running would hold a pipe open, and the test would wait for it.
      const args = ['sandbox', '--port', '0', '--', 'sh', '-c', 'sleep 77 & echo $! > bg.pid'];
      const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: jobEnv(), stdio: 'ignore' });
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
      const pid = Number(readFileSync(join(dir, 'bg.pid'), 'utf8'));
      const alive = runs(pid);
      if (alive) process.kill(pid, 'SIGKILL');
      expect(alive).toBe(false);
    },
  );
});
