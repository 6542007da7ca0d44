import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../src/sandbox/server.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function sandbox(options: Partial<SandboxOptions> = {}) {
  const started = await testSandbox({
    slowMs: 300,
    ...options,
  });
  const call = async (method: string, path: string, body?: unknown, key: string | null = 'k') => {
    const response = await fetch(`${started.url}${path}`, {
      method,
      ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}),
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return {
      status: response.status,
      body: await response.json().catch(() => null),
      retryAfter: response.headers.get('retry-after'),
    };
  };
  return { ...started, call };
}

const order = (id: string, extra: object = {}) => ({
  id,
  total_paid_value: 100,
  payments: [{ id: `P-${id}` }],
  ...extra,
});

describe('collect sandbox: answers', () => {
  it('creates orders (201) and evaluates them by explained rules', async () => {
    const { call } = await sandbox();
    expect(await call('POST', '/v2/order', order('A'))).toEqual({
      status: 201,
      body: { message: 'Order created' },
      retryAfter: null,
    });
    expect((await call('POST', '/v2/order', order('B', { evaluate: true }))).body).toMatchObject({
      legiti_decision: 'approve',
    });
    expect(
      (await call('POST', '/v2/order', order('C', { evaluate: true, total_paid_value: 700 }))).body,
    ).toMatchObject({ legiti_decision: 'manual', message: expect.stringContaining('review threshold') });
    expect(
      (await call('POST', '/v2/order', order('D', { evaluate: true, total_paid_value: 5000 }))).body,
    ).toMatchObject({ legiti_decision: 'reject', message: expect.stringContaining('reject threshold') });
    expect(
      (
        await call(
          'POST',
          '/v2/order',
          order('E', { evaluate: true, payments: [{ id: 'P', card: { first_six_digits: '400000' } }] }),
        )
      ).body,
    ).toMatchObject({ legiti_decision: 'reject', message: 'card BIN 400000 is blocked' });
  });
  it('answers the updates of known orders, 404 for unknown ones, and shows what it holds', async () => {
    const { call } = await sandbox();
    await call('POST', '/v2/order', order('A'));
    expect((await call('PUT', '/v2/order', { id: 'A', status: 'approved' })).status).toBe(200);
    expect(
      (await call('POST', '/v2/order/mark_fraudulent', { order_id: 'A', fraud_signal_type: 'chargeback' }))
        .status,
    ).toBe(201);
    expect(
      (await call('PUT', '/v2/order/payment', { id: 'P-A', order_id: 'A', acquirer_id: 'X' })).status,
    ).toBe(200);
    expect(
      (await call('PUT', '/v2/order/payment', { id: 'P-Z', order_id: 'A', acquirer_id: 'X' })).status,
    ).toBe(404);
    expect((await call('PUT', '/v2/order/delivery', { id: 'D', order_id: 'A' })).status).toBe(200);
    expect(await call('PUT', '/v2/order', { id: 'NOPE', status: 'approved' })).toMatchObject({
      status: 404,
      body: { error_message: expect.stringContaining('NOPE') },
    });
    const held = await call('GET', '/_sandbox/orders/A');
    expect(held.body).toMatchObject({
      updates: {
        status: [{ status: 'approved' }],
        fraud: [{ fraud_signal_type: 'chargeback' }],
        payment: [{ acquirer_id: 'X' }],
        delivery: [{ id: 'D' }],
      },
    });
    expect((await call('GET', '/_sandbox/orders/NOPE')).status).toBe(404);
  });
  it('answers 400 for invalid JSON (error_code 1) and for invalid bodies per field (error_code 2)', async () => {
    const { call } = await sandbox();
    expect(await call('PUT', '/v2/order', '{"id":')).toMatchObject({
      status: 400,
      body: { error_message: 'Invalid JSON', error_code: 1 },
    });
    expect(await call('PUT', '/v2/order', { id: 'A', status: 'shipped' })).toMatchObject({
      status: 400,
      body: { error_message: { status: [expect.any(String)] }, error_code: 2 },
    });
  });
  it('answers 401 without a key, and for any key but --key', async () => {
    const open = await sandbox();
    expect((await open.call('PUT', '/v2/order', { id: 'A', status: 'approved' }, null)).status).toBe(401);
    const locked = await sandbox({ key: 'right' });
    expect((await locked.call('POST', '/v2/order', order('A'), 'wrong')).status).toBe(401);
    expect((await locked.call('POST', '/v2/order', order('A'), 'right')).status).toBe(201);
  });
  it('records every request as NDJSON, never the key', async () => {
    const record = join(tempDir('collect-sb-'), 'requests.ndjson');
    const { call, close } = await sandbox({ record });
    await call('POST', '/v2/order', order('A'), 'secret-key-value');
    await call('PUT', '/v2/order', { id: 'A', status: 'approved' }, 'secret-key-value');
    await close();
    const text = readFileSync(record, 'utf8');
    expect(
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toMatchObject([
      { method: 'POST', path: '/v2/order', status: 201, auth: 'present', fault: 'none' },
      { method: 'PUT', status: 200 },
    ]);
    expect(text).not.toContain('secret-key-value');
  });
});

describe('collect sandbox: faults on demand', () => {
  it('fails (503), throttles (429 with Retry-After), answers slowly, and drops connections', async () => {
    expect(
      (
        await (
          await sandbox({ faults: { fail: 1, throttle: 0, slow: 0, reset: 0 } })
        ).call('POST', '/v2/order', order('A'))
      ).status,
    ).toBe(503);
    const throttled = await (
      await sandbox({ retryAfterSeconds: 2, faults: { fail: 0, throttle: 1, slow: 0, reset: 0 } })
    ).call('POST', '/v2/order', order('A'));
    expect(throttled).toMatchObject({ status: 429, retryAfter: '2' });
    const slow = await sandbox({ slowMs: 400, faults: { fail: 0, throttle: 0, slow: 1, reset: 0 } });
    const started = Date.now();
    expect((await slow.call('POST', '/v2/order', order('A'))).status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    const reset = await sandbox({ faults: { fail: 0, throttle: 0, slow: 0, reset: 1 } });
    await expect(reset.call('POST', '/v2/order', order('A'))).rejects.toThrow();
  });
  it('replays the same fault sequence for the same seed', async () => {
    const sequence = async (seed: number) => {
      const { call } = await sandbox({ seed, faults: { fail: 0.3, throttle: 0.3, slow: 0, reset: 0 } });
      const statuses = [];
      for (let i = 0; i < 20; i++) statuses.push((await call('POST', '/v2/order', order(`O${i}`))).status);
      return statuses;
    };
    const first = await sequence(7);
    expect(await sequence(7)).toEqual(first);
    expect(new Set(first)).toEqual(new Set([201, 503, 429]));
  });
});

describe('a backfill of fixtures/history against the sandbox', () => {
  it('gets every record accepted through injected faults, with decisions in the results', async () => {
    const { url } = await sandbox({
      seed: 7,
      slowMs: 300,
      faults: { fail: 0.15, throttle: 0.1, slow: 0.05, reset: 0.05 },
    });
    const state = freshStateDir();
    const results = join(state, 'results.ndjson');
    const { code, stdout } = await runCli(
      [
        'backfill',
        'fixtures/history',
        '--base-url',
        url,
        '--state',
        state,
        '--timeout',
        '200',
        '--retries',
        '10',
        '--format',
        'json',
        '--results',
        results,
      ],
      { env: { COLLECT_API_KEY: 'sandbox-key' } },
    );
    const report = JSON.parse(stdout);
    expect(code).toBe(0);
    expect(report.summary).toMatchObject({ records: 21, sent: 21, accepted: 21, failed: 0 });
    expect(report.delivery.retried).toBeGreaterThan(0);
    expect(report.delivery.decisions).toEqual({ approve: 1, reject: 2, manual: 1 });
    expect(readFileSync(results, 'utf8')).toContain('"legiti_decision":"reject"');
  });
});

describe('the collect sandbox command', () => {
  it('says where it listens and stops on Ctrl-C with exit 0', async () => {
    const child = spawn(process.execPath, ['dist/cli/main.js', 'sandbox', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      child.on('exit', () => reject(new Error(stderr)));
    });
    const response = await fetch(`${url}/v2/order`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: JSON.stringify(order('A')),
    });
    expect(response.status).toBe(201);
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(stderr).toContain('stopped');
  });
});
