import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { redactor } from '../src/compose/apiKey.js';
import type { Report } from '../src/report/report.js';
import type { SandboxOptions } from '../src/sandbox/server.js';
import { runSession } from '../bench/sandbox-session.js';
import { startServer } from './helpers/localServer.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function judgingSandbox(options: Partial<SandboxOptions> = {}) {
  const started = await testSandbox({
    judge: { strict: false },
    ...options,
  });
  const call = async (
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = { authorization: 'Bearer k', 'content-type': 'application/json' },
  ) => {
    const response = await fetch(`${started.url}${path}`, {
      method,
      headers,
      body: Buffer.from(JSON.stringify(body)),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  };
  const liveReport = async () => (await (await fetch(`${started.url}/_sandbox/report`)).json()) as Report;
  return { ...started, call, liveReport };
}

const order = (id: string, extra: object = {}) => ({
  id,
  total_paid_value: 100,
  creation_datetime: '2026-01-01T00:00:00Z',
  user: { id: 'U' },
  payments: [{ id: `P-${id}` }],
  ...extra,
});

describe('collect sandbox --report: the answers stay those of the service', () => {
  it('answers a finding the service would not refuse as the service would, and reports it live', async () => {
    const { call, liveReport } = await judgingSandbox();
    expect(
      (await call('POST', '/v2/order', order('A', { evaluate: true, total_paid_value: 5000 }))).body,
    ).toMatchObject({ legiti_decision: 'reject' });
    expect(
      (await call('POST', '/v2/order/mark_fraudulent', { order_id: 'A', fraud_signal_type: 'chargeback' }))
        .status,
    ).toBe(201);
    expect((await call('PUT', '/v2/order', { id: 'A', status: 'declined' })).status).toBe(200);
    expect((await call('PUT', '/v2/order', { id: 'A', status: 'declined' })).status).toBe(200);
    expect((await call('PUT', '/v2/order', { id: 'NOPE', status: 'declined' })).status).toBe(404);
    const report = await liveReport();
    expect(report.issues.map((issue) => `${issue.line} ${issue.code}`)).toEqual([
      '2 fraud-after-service-decline',
      '4 status-unchanged',
      '5 unknown-order',
    ]);
    expect(report.summary).toMatchObject({ records: 5, invalid: 2, errors: 2, warnings: 1 });
    expect(report.issues[0]!.file).toMatch(
      /^request #2 POST \/v2\/order\/mark_fraudulent at \d{4}-\d\d-\d\dT/,
    );
  });
  it('leaves injected failures out of the flow rules, so a retry is no repeat', async () => {
    const { call, liveReport } = await judgingSandbox({
      seed: 3,
      faults: { fail: 0.5, throttle: 0, slow: 0, reset: 0 },
    });
    await call('POST', '/v2/order', order('A'));
    let statuses = 0;
    for (let attempt = 0; attempt < 20 && statuses < 1; attempt++)
      if ((await call('PUT', '/v2/order', { id: 'A', status: 'approved' })).status === 200) statuses++;
    const report = await liveReport();
    expect(report.issues.filter((issue) => issue.code === 'status-unchanged')).toEqual([]);
    expect(report.notes.map((note) => note.code)).toContain('not-taken');
  });
  it('serves no report when it does not judge', async () => {
    const plain = await testSandbox();
    expect((await fetch(`${plain.url}/_sandbox/report`)).status).toBe(404);
    expect(plain.report()).toBeUndefined();
  });
});

describe('collect sandbox --upstream', () => {
  it(
    "forwards every request with COLLECT_API_KEY's key, returns the service's answers and reports " +
      'the same findings',
    async () => {
      const upstream = await startServer((request) =>
        request.method === 'POST' && request.path === '/staging/v2/order'
          ? {
              status: 201,
              body: {
                legiti_decision: JSON.parse(request.body).total_paid_value > 1000 ? 'reject' : 'approve',
              },
            }
          : { status: 200, body: { message: 'ok' } },
      );
      closers.push(upstream.close);
      const { call, liveReport } = await judgingSandbox({
        upstream: {
          base: new URL(`${upstream.url}/staging`),
          key: 'staging-key',
          redact: redactor('staging-key'),
          timeoutMs: 2000,
        },
      });
      expect(
        await call('POST', '/v2/order', order('A', { evaluate: true, total_paid_value: 5000 }), {
          authorization: 'Bearer app-key',
        }),
      ).toEqual({ status: 201, body: { legiti_decision: 'reject' } });
      expect(
        (await call('POST', '/v2/order/mark_fraudulent', { order_id: 'A', fraud_signal_type: 'chargeback' }))
          .status,
      ).toBe(200);
      expect((await call('PUT', '/v2/order', { id: 'B', status: 'approved' })).status).toBe(200);
      expect(
        upstream.requests.map(
          (request) => `${request.method} ${request.path} ${request.headers.authorization}`,
        ),
      ).toEqual([
        'POST /staging/v2/order Bearer staging-key',
        'POST /staging/v2/order/mark_fraudulent Bearer staging-key',
        'PUT /staging/v2/order Bearer staging-key',
      ]);
      expect(upstream.requests[0]!.headers['content-type']).toBeUndefined();
      const report = await liveReport();
      expect(report.issues.map((issue) => `${issue.line} ${issue.code}`)).toEqual([
        '1 content-type-not-json',
        '2 fraud-after-service-decline',
        '3 unknown-order',
      ]);
      expect(JSON.stringify(report)).not.toContain('staging-key');
    },
  );
  it(
    'answers 502 when the upstream service does not answer, and leaves that request out of the flow ' +
      'rules',
    async () => {
      const upstream = await startServer(() => 'reset');
      closers.push(upstream.close);
      const { call, liveReport } = await judgingSandbox({
        upstream: {
          base: new URL(upstream.url),
          key: 'upstream-key',
          redact: redactor('upstream-key'),
          timeoutMs: 2000,
        },
      });
      expect((await call('POST', '/v2/order', order('A'))).status).toBe(502);
      expect((await liveReport()).notes).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'not-taken', count: 1 })]),
      );
    },
  );
});

function startCli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['dist/cli/main.js', 'sandbox', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error(stderr)));
  });
  return { child, url, exit, stderr: () => stderr };
}

describe('the collect sandbox --report command (as a CI job runs it)', () => {
  it(
    'judges a scripted session making every mistake of issue 15, writes a JUnit report on SIGTERM ' +
      'and exits 1',
    async () => {
      const file = join(tempDir('collect-sbr-'), 'report.xml');
      const sandbox = startCli(['--report', file]);
      await runSession(await sandbox.url);
      sandbox.child.kill('SIGTERM');
      expect(await sandbox.exit).toBe(1);
      // ORD-3's creation lacks its Content-Type: its three later calls are order-invalid as well.
      expect(sandbox.stderr()).toContain(
        `8 requests judged, 6 with errors: 7 errors, 1 warning; report written to ${file}`,
      );
      const xml = readFileSync(file, 'utf8');
      const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml);
      // A failed test per request and rule it broke with an error (one request breaks two); no time in a name.
      expect(parsed.testsuites['@_failures']).toBe('7');
      expect(xml).not.toMatch(/name="[^"]*\d{4}-\d\d-\d\dT/);
      for (const code of [
        'unknown-order',
        'fraud-after-service-decline',
        'content-type-not-json',
        'status-unchanged',
        'invalid-datetime',
        'order-invalid',
      ])
        expect(xml).toContain(code);
    },
  );
  it('exits 0 on SIGINT after a clean session, and 1 with --strict when there was a warning', async () => {
    const dir = tempDir('collect-sbr-');
    const clean = startCli(['--report', join(dir, 'clean.json')]);
    const base = await clean.url;
    const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
    await fetch(`${base}/v2/order`, { method: 'POST', headers, body: JSON.stringify(order('A')) });
    clean.child.kill('SIGINT');
    expect(await clean.exit).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'clean.json'), 'utf8')).summary).toMatchObject({
      records: 1,
      valid: 1,
      errors: 0,
    });

    const strict = startCli(['--report', join(dir, 'strict.txt'), '--strict']);
    const url = await strict.url;
    await fetch(`${url}/v2/order`, { method: 'POST', headers, body: JSON.stringify(order('A')) });
    await fetch(`${url}/v2/order`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ id: 'A', status: 'approved' }),
    });
    await fetch(`${url}/v2/order`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ id: 'A', status: 'approved' }),
    });
    strict.child.kill('SIGTERM');
    expect(await strict.exit).toBe(1);
    expect(readFileSync(join(dir, 'strict.txt'), 'utf8')).toContain('[status-unchanged]');
  });
  it(
    'refuses --upstream without COLLECT_API_KEY, and a report path it cannot write, before it ' +
      'listens (exit 2)',
    async () => {
      const noKey = spawn(
        process.execPath,
        [
          'dist/cli/main.js',
          'sandbox',
          '--port',
          '0',
          '--report',
          'r.json',
          '--upstream',
          'https://staging.example.com',
        ],
        { env: { ...process.env, COLLECT_API_KEY: '' } },
      );
      expect(await new Promise((resolve) => noKey.on('exit', resolve))).toBe(2);
      const badPath = spawn(process.execPath, [
        'dist/cli/main.js',
        'sandbox',
        '--port',
        '0',
        '--report',
        '/nonexistent-dir/r.json',
      ]);
      expect(await new Promise((resolve) => badPath.on('exit', resolve))).toBe(2);
    },
  );
});
