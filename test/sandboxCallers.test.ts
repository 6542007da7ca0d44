import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redactor } from '../src/compose/apiKey.js';
import type { SandboxOptions } from '../src/sandbox/server.js';
import { startServer } from './helpers/localServer.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const KEY = 'staging-key-0123456789';

/** A raw request: the target goes as written (no URL normalising) and any Host or Origin header can be set. */
function raw(
  url: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        method,
        path: target,
        headers: { 'content-length': String(Buffer.byteLength(body)), ...headers },
        setHost: !('host' in headers),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function upstreamSandbox(
  reply: (path: string, authorization: string | undefined) => unknown = () => ({ message: 'ok' }),
  options: Partial<SandboxOptions> = {},
) {
  const upstream = await startServer((request) => ({
    status: 200,
    body: reply(request.path, request.headers.authorization),
  }));
  closers.push(upstream.close);
  const sandbox = await testSandbox({
    upstream: { base: new URL(upstream.url), key: KEY, redact: redactor(KEY), timeoutMs: 2000 },
    ...options,
  });
  return { upstream, sandbox };
}

const json = { authorization: 'Bearer app-key', 'content-type': 'application/json' };
const status = JSON.stringify({ id: 'A', status: 'approved' });

describe('collect sandbox --upstream: what it forwards, and for whom', () => {
  it(
    'forwards the five endpoints with their methods, and nothing else, never contacting the upstream ' +
      'for the rest',
    async () => {
      const { upstream, sandbox } = await upstreamSandbox();
      expect((await raw(sandbox.url, 'PUT', '/v2/order', json, status)).status).toBe(200);
      const refused: [string, string, number][] = [
        ['DELETE', '/v2/order', 405],
        ['GET', '/v2/order', 405],
        ['POST', '/admin/x', 404],
        ['POST', '/v3/secret', 404],
        ['PUT', '/v2/order/../../v3/secret', 404],
        ['PUT', '/v2/order/%2e%2e/%2e%2e/v3/secret', 404],
        ['PUT', '/v2/order%2fpayment', 404],
        ['PUT', '//v2/order', 404],
        ['PUT', '/v2//order', 404],
        ['PUT', '/v2/order?next=/v3/secret', 404],
        ['PUT', '/v2/order/', 404],
        ['PUT', 'http://evil.example/v2/order', 404],
      ];
      for (const [method, target, expected] of refused) {
        expect(`${method} ${target} ${(await raw(sandbox.url, method, target, json, status)).status}`).toBe(
          `${method} ${target} ${expected}`,
        );
      }
      expect(upstream.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        'PUT /v2/order',
      ]);
    },
  );
  it(
    'refuses a caller without Authorization: Bearer, addressed to another Host, or from a web page ' +
      '(Origin), before the upstream',
    async () => {
      const { upstream, sandbox } = await upstreamSandbox();
      const port = new URL(sandbox.url).port;
      expect(
        (await raw(sandbox.url, 'PUT', '/v2/order', { 'content-type': 'application/json' }, status)).status,
      ).toBe(401);
      expect(
        (await raw(sandbox.url, 'PUT', '/v2/order', { ...json, authorization: 'Basic YTpi' }, status)).status,
      ).toBe(401);
      expect(
        (await raw(sandbox.url, 'PUT', '/v2/order', { ...json, host: `attacker.example:${port}` }, status))
          .status,
      ).toBe(403);
      expect(
        (await raw(sandbox.url, 'PUT', '/v2/order', { ...json, host: 'localhost:1' }, status)).status,
      ).toBe(403);
      expect(
        (
          await raw(
            sandbox.url,
            'POST',
            '/v2/order',
            { ...json, 'content-type': 'text/plain', origin: 'https://evil.example' },
            '{"id":"A"}',
          )
        ).status,
      ).toBe(403);
      expect(
        (await raw(sandbox.url, 'POST', '/v2/order', { ...json, origin: 'null' }, '{"id":"A"}')).status,
      ).toBe(403);
      expect(
        (
          await raw(sandbox.url, 'OPTIONS', '/v2/order', {
            origin: 'https://evil.example',
            'access-control-request-method': 'PUT',
          })
        ).status,
      ).toBe(403);
      expect(upstream.requests).toEqual([]);
      // The sandbox's own names, as it listens, are fine.
      expect(
        (await raw(sandbox.url, 'PUT', '/v2/order', { ...json, host: `localhost:${port}` }, status)).status,
      ).toBe(200);
      expect(
        (await raw(sandbox.url, 'PUT', '/v2/order', { ...json, host: `127.0.0.1:${port}` }, status)).status,
      ).toBe(200);
    },
  );
  it(
    'answers a web page or a foreign Host with 403 without upstream too, and leaves them out of the ' +
      'report',
    async () => {
      const sandbox = await testSandbox({
        judge: { strict: false },
      });
      const order = JSON.stringify({
        id: 'A',
        total_paid_value: 1,
        creation_datetime: '2026-01-01T00:00:00Z',
        user: { id: 'U' },
        payments: [{ id: 'P' }],
      });
      expect(
        (
          await raw(
            sandbox.url,
            'POST',
            '/v2/order',
            { ...json, 'content-type': 'text/plain', origin: 'https://evil.example' },
            order,
          )
        ).status,
      ).toBe(403);
      expect(
        (await raw(sandbox.url, 'POST', '/v2/order', { ...json, host: 'rebound.example' }, order)).status,
      ).toBe(403);
      expect((await raw(sandbox.url, 'GET', '/_sandbox/report', { host: 'rebound.example' })).status).toBe(
        403,
      );
      // Without a key the local sandbox still answers 401 and the judge reports it (documented behaviour).
      expect(
        (await raw(sandbox.url, 'POST', '/v2/order', { 'content-type': 'application/json' }, order)).status,
      ).toBe(401);
      const report = sandbox.report()!;
      expect(report.summary.records).toBe(1);
      expect(report.issues.map((issue) => issue.code)).toEqual(['missing-authorization']);
      expect(report.notes).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'caller-refused', count: 3 })]),
      );
    },
  );
});

describe('collect sandbox --upstream: a service that echoes the key', () => {
  it(
    'never passes the key back to the application, nor writes it to --record or the report, in any ' +
      'encoding',
    async () => {
      const record = join(tempDir('collect-sbu-'), 'requests.ndjson');
      const echo = (_path: string, authorization: string | undefined) => ({
        error_message: `bad key ${authorization}`,
        url: `https://x/?k=${encodeURIComponent(KEY)}`,
        b64: Buffer.from(`Bearer ${KEY}`).toString('base64'),
        nested: JSON.stringify({ k: KEY }),
      });
      const { sandbox } = await upstreamSandbox(echo, { record, judge: { strict: false } });
      const answer = await raw(sandbox.url, 'PUT', '/v2/order', json, status);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('[REDACTED]');
      const live = await raw(sandbox.url, 'GET', '/_sandbox/report', {});
      await sandbox.close();
      for (const text of [
        answer.text,
        readFileSync(record, 'utf8'),
        live.text,
        JSON.stringify(sandbox.report()),
      ]) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(encodeURIComponent(KEY));
        expect(text).not.toContain(Buffer.from(KEY).toString('base64').slice(2, 20));
      }
    },
  );
});

describe('collect sandbox --upstream: a runaway answer', () => {
  it('answers 502 for an upstream answer over 1 MiB, never holding or passing it on', async () => {
    const { sandbox } = await upstreamSandbox(() => ({ pad: 'x'.repeat(3 * 1024 * 1024) }));
    const answer = await raw(sandbox.url, 'PUT', '/v2/order', json, status);
    expect(answer.status).toBe(502);
    expect(answer.text.length).toBeLessThan(1000);
    expect((await raw(sandbox.url, 'PUT', '/v2/order', json, status)).status).toBe(502);
  });
});
