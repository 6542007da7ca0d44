import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nd, orderRecord } from './helpers/history.js';
import { startServer, type Reply, type SeenRequest } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const KEY = 'sk_test_5ecret-Key-that-must-not-leak';
const env = { COLLECT_API_KEY: KEY };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function service(
  handler: (request: SeenRequest, count: number) => Reply | Promise<Reply> = () => ({
    status: 200,
    body: { message: 'ok' },
  }),
) {
  const server = await startServer(handler);
  closers.push(server.close);
  return server;
}

function workdir(files: Record<string, string> = {}): string {
  const dir = tempDir('collect-send-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Every file under a folder whose name passes `keep`, read as text. */
function allText(dir: string, keep: (name: string) => boolean = () => true): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(join(entry.parentPath, entry.name)))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');
}

describe('sending', () => {
  it('tells the process that a dry run only checks (it caps its heaps), and a sending run never does', async () => {
    const server = await service();
    const dir = workdir({ 'status.csv': 'id,status\nA,approved\nB,declined\n' });
    let checkOnly = 0;
    const onCheckOnly = () => void checkOnly++;
    const { code } = await runCli(
      ['status', join(dir, 'status.csv'), '--base-url', server.url, '--format', 'json', '--no-state'],
      { env, onCheckOnly },
    );
    expect(code).toBe(0);
    expect(checkOnly).toBe(0);
    await runCli(['status', join(dir, 'status.csv'), '--dry-run', '--format', 'json'], { env, onCheckOnly });
    expect(checkOnly).toBe(1);
  });

  it('sends every valid record with the Bearer key and reports what the service accepted', async () => {
    const server = await service();
    const dir = workdir({ 'status.csv': 'id,status\nA,approved\nB,declined\n' });
    const { code, stdout } = await runCli(
      ['status', join(dir, 'status.csv'), '--base-url', server.url, '--format', 'json', '--no-state'],
      { env },
    );
    const report = JSON.parse(stdout);
    expect(code).toBe(0);
    expect(report.summary).toMatchObject({ records: 2, sent: 2, accepted: 2, rejected: 0, failed: 0 });
    expect(report.delivery.endpoints.status).toEqual({ sent: 2, accepted: 2, rejected: 0, failed: 0 });
    expect(
      server.requests.map((r) => [r.method, r.path, r.headers.authorization, JSON.parse(r.body)]),
    ).toEqual([
      ['PUT', '/v2/order', `Bearer ${KEY}`, { id: 'A', status: 'approved' }],
      ['PUT', '/v2/order', `Bearer ${KEY}`, { id: 'B', status: 'declined' }],
    ]);
  });

  it('sends no invalid record, rejects on a 400 at once, and writes both to --rejects and --results', async () => {
    const server = await service((request) =>
      request.body.includes('"B"')
        ? { status: 400, body: { error_message: { status: ['Not allowed now.'] } } }
        : { status: 200, body: { message: 'ok' } },
    );
    const dir = workdir({
      'status.csv': 'id,status,status_reason\nA,approved,"two, words"\nB,declined,\nC,shipped,\n',
    });
    const { code, stdout } = await runCli(
      [
        'status',
        join(dir, 'status.csv'),
        '--base-url',
        server.url,
        '--format',
        'json',
        '--no-state',
        '--rejects',
        join(dir, 'rejects.csv'),
        '--results',
        join(dir, 'results.ndjson'),
      ],
      { env },
    );
    expect(code).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(JSON.parse(stdout).summary).toMatchObject({ invalid: 1, sent: 2, accepted: 1, rejected: 1 });
    const rejects = readFileSync(join(dir, 'rejects.csv'), 'utf8').trim().split('\n');
    expect(rejects[0]).toBe('id,status,status_reason,collect_reason');
    expect(rejects.slice(1).sort()).toEqual(
      [
        'B,declined,,the service rejected it (HTTP 400): status: Not allowed now.',
        'C,shipped,,"invalid-enum status: status must be one of: approved, declined, pending, ' +
          'cancelled, manual_analysis, unauthorized"',
      ].sort(),
    );
    const results = readFileSync(join(dir, 'results.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(results.map((r) => [r.key, r.status, r.attempts])).toEqual(
      expect.arrayContaining([
        ['A', 200, 1],
        ['B', 400, 1],
      ]),
    );
    expect(results.find((r) => r.key === 'B').body).toEqual({
      error_message: { status: ['Not allowed now.'] },
    });
  });

  it('takes a corrected rejects file back: the reasons column is ignored', async () => {
    const server = await service();
    const dir = workdir({ 'fixed.csv': 'id,status,collect_reason\nC,approved,invalid-enum status: ...\n' });
    const { code, stdout } = await runCli(
      ['status', join(dir, 'fixed.csv'), '--base-url', server.url, '--format', 'json', '--no-state'],
      { env },
    );
    expect(code).toBe(0);
    expect(JSON.parse(stdout).issues).toEqual([]);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ id: 'C', status: 'approved' });
  });

  it('writes NDJSON rejects as the line plus a reason field', async () => {
    const server = await service(() => ({ status: 422, body: { error_message: 'unknown order' } }));
    const dir = workdir({ 'fraud.ndjson': nd({ order_id: 'A', fraud_signal_type: 'chargeback' }) });
    await runCli(
      [
        'fraud',
        join(dir, 'fraud.ndjson'),
        '--base-url',
        server.url,
        '--no-state',
        '--rejects',
        join(dir, 'rejects.ndjson'),
      ],
      { env },
    );
    expect(JSON.parse(readFileSync(join(dir, 'rejects.ndjson'), 'utf8'))).toEqual({
      order_id: 'A',
      fraud_signal_type: 'chargeback',
      collect_reason: 'the service rejected it (HTTP 422): unknown order',
    });
  });

  it('stops the whole run on 401 and exits 3, saying the key was refused', async () => {
    const server = await service(() => ({ status: 401, body: { message: 'bad key' } }));
    const dir = workdir({
      'status.ndjson': nd(...['A', 'B', 'C', 'D'].map((id) => ({ id, status: 'approved' }))),
    });
    const { code, stderr, stdout } = await runCli(
      [
        'status',
        join(dir, 'status.ndjson'),
        '--base-url',
        server.url,
        '--concurrency',
        '1',
        '--format',
        'json',
        '--no-state',
      ],
      { env },
    );
    expect(code).toBe(3);
    expect(server.requests).toHaveLength(1);
    expect(stderr).toContain('refused the API key');
    expect(JSON.parse(stdout).summary.accepted).toBe(0);
  });

  it('exits 3 when retries are exhausted or the service does not answer in time', async () => {
    const failing = await service(() => ({ status: 503 }));
    const dir = workdir({ 'status.ndjson': nd({ id: 'A', status: 'approved' }) });
    const exhausted = await runCli(
      [
        'status',
        join(dir, 'status.ndjson'),
        '--base-url',
        failing.url,
        '--retries',
        '2',
        '--format',
        'json',
        '--no-state',
      ],
      { env },
    );
    expect(exhausted.code).toBe(3);
    expect(failing.requests).toHaveLength(3);
    expect(JSON.parse(exhausted.stdout).delivery.retried).toBe(2);
    const slow = await service(() => ({ status: 200, delayMs: 2000 }));
    const started = Date.now();
    const timedOut = await runCli(
      [
        'status',
        join(dir, 'status.ndjson'),
        '--base-url',
        slow.url,
        '--retries',
        '0',
        '--timeout',
        '100',
        '--format',
        'json',
        '--no-state',
      ],
      { env },
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(timedOut.code).toBe(3);
    expect(JSON.parse(timedOut.stdout).issues[0]).toMatchObject({
      code: 'delivery-failed',
      message: expect.stringContaining('no answer within 100 ms'),
    });
  });

  it("backfill: creations first, each order's calls after its creation is accepted", async () => {
    const server = await service((request) => ({
      status: request.method === 'POST' ? 201 : 200,
      body: { message: 'ok' },
      delayMs: request.method === 'POST' ? 80 : 5,
    }));
    const dir = workdir({
      'order.ndjson': nd(orderRecord('A'), orderRecord('B'), orderRecord('C')),
      'status.ndjson': nd(
        { id: 'C', status: 'pending' },
        { id: 'A', status: 'approved' },
        { id: 'C', status: 'approved' },
        { id: 'B', status: 'cancelled' },
      ),
    });
    const { code } = await runCli(['backfill', dir, '--base-url', server.url, '--concurrency', '8'], { env });
    expect(code).toBe(0);
    const finished = new Map(
      server.requests.filter((r) => r.method === 'POST').map((r) => [JSON.parse(r.body).id, r.at + 80]),
    );
    for (const update of server.requests.filter((r) => r.method === 'PUT')) {
      expect(update.at).toBeGreaterThanOrEqual(finished.get(JSON.parse(update.body).id)! - 5);
    }
    const forC = server.requests
      .filter((r) => r.method === 'PUT' && r.body.includes('"C"'))
      .map((r) => JSON.parse(r.body).status);
    expect(forC).toEqual(['pending', 'approved']);
  });

  it(
    'records evaluation decisions: fraud marks for orders the service rejected are refused, in the ' +
      'run and later',
    async () => {
      const server = await service((request) => {
        if (request.method !== 'POST' || request.path !== '/v2/order')
          return { status: 201, body: { message: 'ok' } };
        const id = JSON.parse(request.body).id as string;
        return { status: 201, body: { legiti_decision: id === 'A' ? 'reject' : 'approve' } };
      });
      const state = freshStateDir();
      const dir = workdir({
        'order.ndjson': nd(orderRecord('A', { evaluate: true }), orderRecord('B', { evaluate: true })),
        'fraud.ndjson': nd({ order_id: 'A', fraud_signal_type: 'chargeback' }),
      });
      const first = await runCli(
        [
          'backfill',
          dir,
          '--base-url',
          server.url,
          '--format',
          'json',
          '--state',
          state,
          '--results',
          join(dir, 'results.ndjson'),
        ],
        { env },
      );
      const report = JSON.parse(first.stdout);
      expect(report.delivery.decisions).toEqual({ reject: 1, approve: 1 });
      expect(report.issues).toContainEqual(
        expect.objectContaining({ code: 'fraud-after-service-decline', file: join(dir, 'fraud.ndjson') }),
      );
      expect(first.code).toBe(1);
      expect(server.requests.filter((r) => r.path === '/v2/order/mark_fraudulent')).toHaveLength(0);
      const results = readFileSync(join(dir, 'results.ndjson'), 'utf8');
      expect(results).toContain('"legiti_decision":"reject"');
      const later = workdir({
        'fraud.ndjson': nd(
          { order_id: 'A', fraud_signal_type: 'manual_analysis' },
          { order_id: 'B', fraud_signal_type: 'chargeback' },
        ),
      });
      const second = await runCli(
        [
          'fraud',
          join(later, 'fraud.ndjson'),
          '--base-url',
          server.url,
          '--format',
          'json',
          '--state',
          state,
        ],
        { env },
      );
      expect(
        JSON.parse(second.stdout).issues.map((i: { code: string; index: number }) => `${i.code}#${i.index}`),
      ).toEqual(['fraud-after-service-decline#0']);
      expect(
        server.requests
          .filter((r) => r.path === '/v2/order/mark_fraudulent')
          .map((r) => JSON.parse(r.body).order_id),
      ).toEqual(['B']);
    },
  );

  it('never writes the key to any output or file', async () => {
    const server = await service((request, count) =>
      count % 3 === 0
        ? { status: 400, body: { error_message: 'nope' } }
        : count % 5 === 0
          ? 'reset'
          : { status: 201, body: { legiti_decision: 'approve' } },
    );
    const state = freshStateDir();
    const dir = workdir({
      'order.ndjson': nd(orderRecord('A', { evaluate: true }), orderRecord('B'), orderRecord('C'), {
        id: 'D',
        total_paid_value: KEY,
      }),
      'status.ndjson': nd(
        { id: 'A', status: 'approved' },
        { id: 'B', status: KEY },
        { id: KEY, status: 'approved' },
      ),
    });
    const outputs: string[] = [];
    for (const format of ['pretty', 'json', 'junit', 'github']) {
      const result = await runCli(
        [
          'backfill',
          dir,
          '--base-url',
          server.url,
          '--format',
          format,
          '--state',
          state,
          '--retries',
          '1',
          '--resend',
          '--rejects',
          join(dir, `rejects-${format}`),
          '--results',
          join(dir, `results-${format}.ndjson`),
        ],
        { env },
      );
      outputs.push(result.stdout, result.stderr);
    }
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const viaFile = await runCli([
      'status',
      join(dir, 'status.ndjson'),
      '--base-url',
      server.url,
      '--api-key-file',
      keyFile,
      '--state',
      state,
    ]);
    outputs.push(viaFile.stdout, viaFile.stderr);
    expect(server.requests.length).toBeGreaterThan(5);
    // Everything collect wrote: reports, rejects, results and the state (the inputs hold the key as data on purpose).
    const written = allText(dir, (path) => /(rejects|results)-/.test(path));
    expect(written.length).toBeGreaterThan(100);
    for (const text of [...outputs, written, allText(state)]) expect(text).not.toContain(KEY);
    expect(outputs.join('\n')).toContain('[REDACTED]');
  });

  it.skipIf(process.platform === 'win32')('refuses a key file others can read, like ssh', async () => {
    const server = await service();
    const dir = workdir({ 'status.ndjson': nd({ id: 'A', status: 'approved' }), key: `${KEY}\n` });
    expect(statSync(join(dir, 'key')).mode & 0o077).not.toBe(0);
    const { stderr, code } = await runCli([
      'status',
      join(dir, 'status.ndjson'),
      '--base-url',
      server.url,
      '--api-key-file',
      join(dir, 'key'),
      '--no-state',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(`chmod 600 ${join(dir, 'key')}`);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    [['--base-url', 'http://collect.example.test'], env, 'refusing plain http://'],
    [['--base-url', 'http://127.0.0.1:9'], {}, 'no API key'],
    [[], env, 'no service to send to'],
  ])('refuses to send with %j', async (flags, environment, message) => {
    const { code, stderr } = await runCli(['status', 'fixtures/status/valid.csv', ...flags, '--no-state'], {
      env: environment,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
