/** The key on the wire: never to another host on a redirect, never over an unverified TLS connection. */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'k-transport' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function statusFile(): string {
  const dir = tempDir('collect-transport-');
  writeFileSync(join(dir, 'status.ndjson'), '{"id":"A","status":"approved"}\n');
  return join(dir, 'status.ndjson');
}

describe('redirects', () => {
  it('are not followed: the other host never sees the key, and the run stops as a setup problem', async () => {
    const elsewhere = await startServer(() => ({ status: 200 }));
    const service = await startServer(() => ({
      status: 307,
      headers: { location: `${elsewhere.url}/v2/order` },
    }));
    closers.push(elsewhere.close, service.close);
    const { code, stdout } = await runCli(
      ['status', statusFile(), '--base-url', service.url, '--no-state', '--format', 'json'],
      { env },
    );
    expect(code).toBe(3);
    expect(elsewhere.requests).toHaveLength(0);
    expect(JSON.parse(stdout).issues[0].message).toContain('does not follow redirects');
  });
});

describe('TLS', () => {
  it('is always verified: a self-signed certificate fails the delivery', async () => {
    const dir = tempDir('collect-tls-');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=localhost',
        '-days',
        '1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const seen: string[] = [];
    const server = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (req, res) => {
        seen.push(req.headers.authorization ?? '');
        res.end('{}');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const { code, stdout } = await runCli(
      [
        'status',
        statusFile(),
        '--base-url',
        `https://localhost:${port}`,
        '--no-state',
        '--retries',
        '0',
        '--format',
        'json',
      ],
      { env },
    );
    expect(code).toBe(3);
    expect(seen).toEqual([]);
    expect(JSON.parse(stdout).issues[0]).toMatchObject({
      code: 'delivery-failed',
      message: expect.stringMatching(/certificate/i),
    });
  });
});
