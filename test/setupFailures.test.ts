/**
 * Misbehaving services: a deadline per attempt, a cap on answers, and setup failures that stop the run at
 * once (exit 3).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  hugeAnswerServer,
  refusingPort,
  sameAnswerServer,
  tricklingServer,
} from './helpers/hostileServers.js';
import { startServer } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'k-setup-failures-0123' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A status file of `count` records for different orders. */
function statusFile(count: number): string {
  const dir = tempDir('collect-setup-');
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ id: `ORD-${i}`, status: 'approved' }),
  );
  writeFileSync(join(dir, 'status.ndjson'), `${lines.join('\n')}\n`);
  return join(dir, 'status.ndjson');
}

const send = (url: string, file: string, ...flags: string[]) =>
  runCli(['status', file, '--base-url', url, '--format', 'json', ...flags], { env });
const stopLines = (stderr: string) =>
  stderr.split('\n').filter((line) => line.startsWith('collect: stopped sending'));

describe('a deadline per attempt covers the whole exchange', () => {
  it('abandons a body that trickles past --timeout, even though each byte comes in time', async () => {
    const server = await tricklingServer(50, 40); // 40 bytes, one per 50 ms: 2 s in all, each gap far below the timeout
    closers.push(server.close);
    const { code, stdout } = await send(
      server.url,
      statusFile(1),
      '--timeout',
      '500',
      '--retries',
      '0',
      '--no-state',
    );
    expect(code).toBe(3);
    const report = JSON.parse(stdout);
    expect(report.summary).toMatchObject({ accepted: 0, failed: 1 });
    expect(report.issues[0].message).toContain('no answer within 500 ms');
  });

  it('ends an endless trickle: the run finishes instead of hanging', async () => {
    const server = await tricklingServer(100);
    closers.push(server.close);
    const { code, stdout } = await send(
      server.url,
      statusFile(2),
      '--timeout',
      '300',
      '--retries',
      '1',
      '--no-state',
    );
    expect(code).toBe(3);
    expect(JSON.parse(stdout).summary).toMatchObject({ accepted: 0, failed: 2 });
  });
});

describe('a cap on what is read of an answer', () => {
  it('keeps 1 MiB of a 100 MiB answer and stops reading it', async () => {
    const server = await hugeAnswerServer(100);
    closers.push(server.close);
    const results = join(tempDir('collect-huge-'), 'results.ndjson');
    const { code, stdout } = await send(server.url, statusFile(1), '--no-state', '--results', results);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).summary).toMatchObject({ accepted: 1 });
    expect(statSync(results).size).toBeLessThan(1.1 * 1024 * 1024);
    expect(statSync(results).size).toBeGreaterThan(1000 * 1024);
    expect(server.written()).toBeLessThan(50 * 1024 * 1024); // the rest was never asked for
    expect(JSON.parse(readFileSync(results, 'utf8')).body_truncated).toBe(
      'only the first 1048576 bytes of the answer were read',
    );
  });
});

describe('setup failures stop the run with exit 3 and one message', () => {
  it('an unreachable service: a few attempts, then everything unsent is kept', async () => {
    const port = await refusingPort();
    const { code, stdout, stderr } = await send(`http://127.0.0.1:${port}`, statusFile(200), '--no-state');
    expect(code).toBe(3);
    expect(stopLines(stderr)).toEqual([expect.stringContaining(`cannot be reached (ECONNREFUSED`)]);
    expect(stderr).toContain('fix: check that the service is running');
    const report = JSON.parse(stdout);
    expect(report.summary.accepted).toBe(0);
    expect(report.notes).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'not-sent' })]));
  });

  it('https:// to a plain-http server: named as such, no OpenSSL text, no retries', async () => {
    const server = await sameAnswerServer(201);
    closers.push(server.close);
    const { code, stdout, stderr } = await send(
      `https://127.0.0.1:${server.port}`,
      statusFile(5),
      '--no-state',
    );
    expect(code).toBe(3);
    expect(stopLines(stderr)).toEqual([expect.stringContaining('does not answer in TLS')]);
    expect(stderr).toContain(`use http://127.0.0.1:${server.port}`);
    expect(`${stdout}${stderr}`).not.toMatch(/SSL routines|ssl3_get_record|openssl/i);
    expect(JSON.parse(stdout).delivery.retried).toBe(0);
  });

  it('a redirect is a setup problem, not a rejected record', async () => {
    const server = await sameAnswerServer(308, { location: 'https://elsewhere.example/v2/order' });
    closers.push(server.close);
    const { code, stdout, stderr } = await send(
      server.url,
      statusFile(50),
      '--no-state',
      '--concurrency',
      '1',
    );
    expect(code).toBe(3);
    expect(server.hits).toBe(1);
    expect(stopLines(stderr)).toEqual([
      expect.stringContaining('redirected PUT /v2/order (HTTP 308) to https://elsewhere.example/v2/order'),
    ]);
    expect(stderr).toContain('fix: if https://elsewhere.example is the service, give it as --base-url');
    expect(JSON.parse(stdout).summary.rejected).toBe(0);
  });

  it('404 everywhere with --base-url ending in /v2: says to drop /v2', async () => {
    const server = await sameAnswerServer(404, { 'content-type': 'text/html' }, '<h1>Not Found</h1>');
    closers.push(server.close);
    const { code, stdout, stderr } = await send(
      `${server.url}/v2`,
      statusFile(50),
      '--no-state',
      '--concurrency',
      '1',
    );
    expect(code).toBe(3);
    expect(server.hits).toBe(1);
    expect(stopLines(stderr)).toEqual([
      expect.stringContaining('HTTP 404 to PUT /v2/v2/order before accepting anything there'),
    ]);
    expect(stderr).toContain(`drop /v2 from --base-url`);
    expect(JSON.parse(stdout).summary.rejected).toBe(0);
  });

  it('405 from a server that is not the service', async () => {
    const server = await sameAnswerServer(405);
    closers.push(server.close);
    const { code, stderr } = await send(server.url, statusFile(3), '--no-state');
    expect(code).toBe(3);
    expect(stopLines(stderr)).toHaveLength(1);
  });

  it('a 404 in the service own format, once the path proved itself, rejects that record only', async () => {
    const server = await startServer((request) =>
      request.body.includes('ORD-1')
        ? { status: 404, body: { error_message: 'order ORD-1 not found' } }
        : { status: 200, body: { message: 'ok' } },
    );
    closers.push(server.close);
    const { code, stdout, stderr } = await send(
      server.url,
      statusFile(3),
      '--no-state',
      '--concurrency',
      '1',
    );
    expect(code).toBe(1);
    expect(stopLines(stderr)).toEqual([]);
    expect(JSON.parse(stdout).summary).toMatchObject({ accepted: 2, rejected: 1 });
  });

  it('Retry-After: 3600 is said on screen and stops the run rather than sleeping', async () => {
    const server = await sameAnswerServer(429, { 'retry-after': '3600' });
    closers.push(server.close);
    const { code, stderr } = await send(server.url, statusFile(20), '--no-state', '--concurrency', '2');
    expect(code).toBe(3);
    expect(server.hits).toBeLessThanOrEqual(2);
    expect(stopLines(stderr)).toEqual([expect.stringContaining('asks to wait 3600 s')]);
    expect(stderr).toContain('run the same command again later');
  });

  it('a re-run after the cause is fixed sends everything the stopped run kept', async () => {
    let wrong = true;
    const server = await startServer(() =>
      wrong ? { status: 404 } : { status: 200, body: { message: 'ok' } },
    );
    closers.push(server.close);
    const state = freshStateDir();
    const file = statusFile(30);
    const first = await send(server.url, file, '--state', state);
    expect(first.code).toBe(3);
    wrong = false;
    const before = server.requests.length;
    const second = await send(server.url, file, '--state', state);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).summary).toMatchObject({ accepted: 30, failed: 0 });
    expect(server.requests.length - before).toBe(30);
  });
});
