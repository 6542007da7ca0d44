/**
 * SIGTERM is a Ctrl-C: the requests in flight finish, the summary prints with the interrupted note, exit 130,
 * and a re-run resumes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { tempDir } from './helpers/tempDir.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function collect(args: string[], onStarted?: (kill: (signal: NodeJS.Signals) => void, pid: number) => void) {
  const child = spawn(process.execPath, ['dist/cli/main.js', ...args], {
    env: { PATH: process.env.PATH ?? '', COLLECT_API_KEY: 'k-signals-0123' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  onStarted?.((signal) => child.kill(signal), child.pid!);
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
}

describe('SIGTERM', () => {
  it(
    'finishes what is in flight, prints the summary with the interrupted note, exits 130; a re-run ' +
      'sends the rest',
    async () => {
      let kill: ((signal: NodeJS.Signals) => void) | undefined;
      let slow = true;
      // The second request's arrival is the moment to stop: answers come slowly enough that most records are
      // still unsent.
      const server = await startServer((_, count) => {
        if (count === 2) kill?.('SIGTERM');
        return { status: 200, body: { message: 'ok' }, delayMs: slow ? 100 : 0 };
      });
      closers.push(server.close);
      const dir = tempDir('collect-signals-');
      const lines = Array.from({ length: 40 }, (_, i) =>
        JSON.stringify({ id: `ORD-${i}`, status: 'approved' }),
      );
      writeFileSync(join(dir, 'status.ndjson'), `${lines.join('\n')}\n`);
      const args = [
        'status',
        join(dir, 'status.ndjson'),
        '--base-url',
        server.url,
        '--state',
        join(dir, 'state'),
        '--concurrency',
        '1',
        '--format',
        'json',
      ];
      const first = await collect(args, (k) => (kill = k));
      expect(first.signal).toBeNull();
      expect(first.code).toBe(130);
      const report = JSON.parse(first.stdout);
      expect(report.notes).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'interrupted' })]),
      );
      expect(first.stderr).toContain('collect: stopping');
      const accepted = report.summary.accepted as number;
      expect(accepted).toBeGreaterThanOrEqual(2);
      expect(accepted).toBeLessThan(40);
      expect(server.requests).toHaveLength(accepted);

      slow = false;
      const second = await collect(args);
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout).summary).toMatchObject({ accepted: 40 - accepted, skipped: accepted });
    },
  );
});

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
};

/** A FIFO (named pipe) in a fresh folder, named like an NDJSON file of orders. */
function fifo(): string {
  const path = join(tempDir('collect-fifo-'), 'orders.ndjson');
  execFileSync('mkfifo', [path]);
  return path;
}

const orderLine = (id: string) =>
  `${JSON.stringify({ id, creation_datetime: '2024-03-01T10:00:00Z', total_paid_value: 10, user: { id: 'U1' } })}\n`;

// Waiting on a FIFO used to hold one of Node's thread-pool threads in open() or read(): Ctrl-C and SIGTERM
// did nothing, ever.
describe('a run waiting on a FIFO', () => {
  it.runIf(process.platform === 'linux')(
    'that no one has opened to write: SIGTERM ends it at once with 130 and the summary',
    async () => {
      const path = fifo();
      let pid = 0;
      const running = collect(
        ['order', path, '--dry-run', '--no-state', '--format', 'json'],
        (_, started) => (pid = started),
      );
      // The run holds the FIFO open (as a pipe) once it reads: then it waits for a writer.
      await until(
        () =>
          existsSync(`/proc/${pid}/fd`) &&
          readdirSync(`/proc/${pid}/fd`).some((fd) => {
            try {
              return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
            } catch {
              return false;
            }
          }),
      );
      process.kill(pid, 'SIGTERM');
      const run = await running;
      expect(run).toMatchObject({ code: 130, signal: null });
      expect(JSON.parse(run.stdout).notes).toEqual([expect.objectContaining({ code: 'interrupted' })]);
    },
    30_000,
  );

  it('whose writer sent a record and waits: SIGTERM ends it at once with 130 and the summary', async () => {
    const path = fifo();
    let kill: ((signal: NodeJS.Signals) => void) | undefined;
    const running = collect(
      ['order', path, '--dry-run', '--no-state', '--format', 'json'],
      (k) => (kill = k),
    );
    // Opening to write returns once the run has opened the FIFO to read.
    const writer = await open(path, 'w');
    await writer.write(orderLine('A'));
    kill!('SIGTERM');
    const run = await running;
    await writer.close();
    expect(run).toMatchObject({ code: 130, signal: null });
    expect(JSON.parse(run.stdout).notes).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'interrupted' })]),
    );
  }, 30_000);

  it('and on a transform call that never settles: Ctrl-C ends it at once with 130 and the summary', async () => {
    const path = fifo();
    const dir = tempDir('collect-fifo-transform-');
    const called = join(dir, 'called');
    writeFileSync(
      join(dir, 'hang.mjs'),
      `import { writeFileSync } from 'node:fs';\nexport default () => { writeFileSync(` +
        `${JSON.stringify(called)}, ''); return new Promise(() => {}); };\n`,
    );
    let kill: ((signal: NodeJS.Signals) => void) | undefined;
    const running = collect(
      [
        'order',
        path,
        '--dry-run',
        '--no-state',
        '--format',
        'json',
        '--transform',
        join(dir, 'hang.mjs'),
        '--transform-timeout',
        '600000',
      ],
      (k) => (kill = k),
    );
    const writer = await open(path, 'w');
    await writer.write(orderLine('A'));
    await until(() => existsSync(called));
    kill!('SIGINT');
    const run = await running;
    await writer.close();
    expect(run).toMatchObject({ code: 130, signal: null });
    expect(JSON.parse(run.stdout).notes).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'interrupted' })]),
    );
  }, 30_000);
});
