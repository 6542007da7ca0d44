/** SIGTERM is a Ctrl-C: the requests in flight finish, the summary prints with the interrupted note, exit 130, and a re-run resumes. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function collect(args: string[], onStarted?: (kill: (signal: NodeJS.Signals) => void) => void) {
  const child = spawn(process.execPath, ['dist/cli/main.js', ...args], { env: { PATH: process.env.PATH ?? '', COLLECT_API_KEY: 'k-signals-0123' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  onStarted?.((signal) => child.kill(signal));
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('SIGTERM', () => {
  it('finishes what is in flight, prints the summary with the interrupted note, exits 130; a re-run sends the rest', async () => {
    let kill: ((signal: NodeJS.Signals) => void) | undefined;
    let slow = true;
    // The second request's arrival is the moment to stop: answers come slowly enough that most records are still unsent.
    const server = await startServer((_, count) => {
      if (count === 2) kill?.('SIGTERM');
      return { status: 200, body: { message: 'ok' }, delayMs: slow ? 100 : 0 };
    });
    closers.push(server.close);
    const dir = mkdtempSync(join(tmpdir(), 'collect-signals-'));
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ id: `ORD-${i}`, status: 'approved' }));
    writeFileSync(join(dir, 'status.ndjson'), `${lines.join('\n')}\n`);
    const args = ['status', join(dir, 'status.ndjson'), '--base-url', server.url, '--state', join(dir, 'state'), '--concurrency', '1', '--format', 'json'];
    const first = await collect(args, (k) => (kill = k));
    expect(first.signal).toBeNull();
    expect(first.code).toBe(130);
    const report = JSON.parse(first.stdout);
    expect(report.notes).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'interrupted' })]));
    expect(first.stderr).toContain('collect: stopping');
    const accepted = report.summary.accepted as number;
    expect(accepted).toBeGreaterThanOrEqual(2);
    expect(accepted).toBeLessThan(40);
    expect(server.requests).toHaveLength(accepted);

    slow = false;
    const second = await collect(args);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).summary).toMatchObject({ accepted: 40 - accepted, skipped: accepted });
  });
});
