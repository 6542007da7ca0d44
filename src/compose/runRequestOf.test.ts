import { describe, expect, it } from 'vitest';
import { registry } from '../resources/registry.js';
import type { CliIo } from '../terminal/io.js';
import type { RunFlags } from './runFlags.js';
import { runRequestOf } from './runRequestOf.js';

const KEY = 'a-test-key-of-length';
const order = registry.get('order')!;
const fileInput = [{ resource: order, spec: { name: 'orders.csv', format: 'csv' as const, gzip: false } }];
const stdinInput = [{ resource: order, spec: { name: '-', format: 'ndjson' as const, gzip: false } }];

const flags = (more: Partial<RunFlags> = {}): RunFlags => ({
  format: 'pretty',
  timeout: 2000,
  concurrency: 8,
  retries: 5,
  maxRecordBytes: 1024,
  lockWait: 0,
  transformTimeout: 1000,
  ...more,
});

const io = (env: Record<string, string> = {}, stdinIsTTY = false) =>
  ({ env, stdin: { isTTY: stdinIsTTY } }) as unknown as CliIo;

describe('runRequestOf', () => {
  it('a dry run names no service and, pointed at no state, reads none', () => {
    const { request, state, secret } = runRequestOf(fileInput, flags({ dryRun: true }), io(), undefined);
    expect(request).toMatchObject({ stateDir: null, remember: false, strict: false, maxRecordBytes: 1024 });
    expect(request.service).toBeUndefined();
    expect(state.readOnly).toBe(true);
    expect(secret).toBeUndefined();
  });

  it('a send takes the service from COLLECT_BASE_URL, the key from COLLECT_API_KEY, the state .collect', () => {
    const env = { COLLECT_BASE_URL: 'https://collect.example.com', COLLECT_API_KEY: KEY };
    const { request, redact } = runRequestOf(fileInput, flags({ lockWait: 3 }), io(env), undefined);
    expect(request.service).toMatchObject({ baseUrl: 'https://collect.example.com', apiKey: KEY });
    expect(request).toMatchObject({ stateDir: '.collect', lockWaitMs: 3000 });
    expect(redact(`key ${KEY}`)).not.toContain(KEY);
  });

  it('a dry run with --base-url reads that service’s state and hides a key in the environment', () => {
    const env = { COLLECT_API_KEY: KEY };
    const { request, secret } = runRequestOf(
      fileInput,
      flags({ dryRun: true, baseUrl: 'https://collect.example.com' }),
      io(env),
      undefined,
    );
    expect(request).toMatchObject({ dryRunBaseUrl: 'https://collect.example.com', stateDir: '.collect' });
    expect(secret).toBe(KEY);
  });

  it('refuses a send with no service, and standard input left on a terminal', () => {
    expect(() => runRequestOf(fileInput, flags(), io(), undefined)).toThrow(/no service to send to/);
    expect(() => runRequestOf(stdinInput, flags({ dryRun: true }), io({}, true), undefined)).toThrow(
      /no input: name the files to read/,
    );
  });
});
