/**
 * Never lose, never duplicate: a backfill killed with SIGKILL or stopped with Ctrl-C is
 * completed by running the same command again, against a local server that counts requests.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { startServer, type SeenRequest } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const ORDERS = 150;
const CONCURRENCY = 4;
const env = { COLLECT_API_KEY: 'test-resume' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function history(): string {
  const dir = tempDir('collect-resume-');
  const ids = Array.from({ length: ORDERS }, (_, n) => `ORD-${n}`);
  writeFileSync(join(dir, 'order.ndjson'), nd(...ids.map((id) => orderRecord(id))));
  writeFileSync(join(dir, 'status.ndjson'), nd(...ids.map((id) => ({ id, status: 'approved' }))));
  return dir;
}

/** Starts the backfill as its own process and sends it `signal` once the server has seen `after` requests. */
function interruptedRun(
  url: string,
  dir: string,
  state: string,
  requests: SeenRequest[],
  after: number,
  signal: NodeJS.Signals,
  twice = false,
) {
  const child = spawn(
    process.execPath,
    [
      'dist/cli/main.js',
      'backfill',
      dir,
      '--base-url',
      url,
      '--state',
      state,
      '--concurrency',
      String(CONCURRENCY),
      '--format',
      'json',
    ],
    {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const watch = setInterval(() => {
    if (requests.length >= after) {
      clearInterval(watch);
      child.kill(signal);
      if (twice) setTimeout(() => child.kill(signal), 5);
    }
  }, 2);
  return new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on('exit', (code) => {
      clearInterval(watch);
      resolve({ code, stdout });
    }),
  );
}

function verdict(requests: SeenRequest[]) {
  const keys = requests.map((r) => `${r.method} ${(JSON.parse(r.body) as { id: string }).id}`);
  const distinct = new Set(keys);
  const firstCreation = new Map<string, number>();
  const creationsFirst = keys.every((key, position) => {
    const [method, id] = key.split(' ') as [string, string];
    if (method === 'POST') {
      if (!firstCreation.has(id)) firstCreation.set(id, position);
      return true;
    }
    return firstCreation.has(id) && firstCreation.get(id)! < position;
  });
  return { distinct: distinct.size, duplicates: keys.length - distinct.size, creationsFirst };
}

/** Runs the same backfill again to the end; returns its report and what the server saw over both runs. */
async function rerunToTheEnd(url: string, dir: string, state: string, requests: SeenRequest[]) {
  const rerun = await runCli(
    [
      'backfill',
      dir,
      '--base-url',
      url,
      '--state',
      state,
      '--concurrency',
      String(CONCURRENCY),
      '--format',
      'json',
    ],
    { env },
  );
  expect(rerun.code).toBe(0);
  const seen = verdict(requests);
  expect(seen.distinct).toBe(2 * ORDERS);
  expect(seen.creationsFirst).toBe(true);
  return {
    report: JSON.parse(rerun.stdout) as { summary: Record<string, number> },
    duplicates: seen.duplicates,
  };
}

describe('kill -9 and re-run', () => {
  for (const after of [10, 140, 230]) {
    it(
      `after ${after} requests: the re-run completes with at most ${2 * CONCURRENCY} duplicates, ` +
        `creations first`,
      async () => {
        const server = await startServer((request) => ({
          status: request.method === 'POST' ? 201 : 200,
          body: { message: 'ok' },
          delayMs: 3,
        }));
        closers.push(server.close);
        const dir = history();
        const state = freshStateDir();
        const killed = await interruptedRun(server.url, dir, state, server.requests, after, 'SIGKILL');
        expect(killed.code).toBeNull();
        expect(server.requests.length).toBeLessThan(2 * ORDERS);
        const { report, duplicates } = await rerunToTheEnd(server.url, dir, state, server.requests);
        expect(duplicates).toBeLessThanOrEqual(2 * CONCURRENCY);
        expect(report.summary.skipped).toBeGreaterThanOrEqual(after - 2 * CONCURRENCY);
      },
    );
  }
});

describe('Ctrl-C and re-run', () => {
  it('stops sending, prints the summary, exits 130; the re-run completes', async () => {
    const server = await startServer((request) => ({
      status: request.method === 'POST' ? 201 : 200,
      body: { message: 'ok' },
      delayMs: 3,
    }));
    closers.push(server.close);
    const dir = history();
    const state = freshStateDir();
    const stopped = await interruptedRun(server.url, dir, state, server.requests, 60, 'SIGINT');
    expect(stopped.code).toBe(130);
    const report = JSON.parse(stopped.stdout);
    expect(report.notes).toContainEqual(expect.objectContaining({ code: 'interrupted' }));
    expect(report.summary.accepted).toBeGreaterThan(0);
    expect(report.summary.accepted).toBeLessThan(2 * ORDERS);
    expect((await rerunToTheEnd(server.url, dir, state, server.requests)).duplicates).toBe(0);
  });

  it('a second Ctrl-C quits at once (exit 130), and the re-run still loses nothing', async () => {
    const server = await startServer((request) => ({
      status: request.method === 'POST' ? 201 : 200,
      body: { message: 'ok' },
      delayMs: 3,
    }));
    closers.push(server.close);
    const dir = history();
    const state = freshStateDir();
    const quit = await interruptedRun(server.url, dir, state, server.requests, 60, 'SIGINT', true);
    expect(quit.code).toBe(130);
    expect((await rerunToTheEnd(server.url, dir, state, server.requests)).duplicates).toBeLessThanOrEqual(
      2 * CONCURRENCY,
    );
  });
});
