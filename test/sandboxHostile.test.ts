/** Issue 28 row 5: no request, however hostile, ends the sandbox or costs the session its report. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRegistry, registry } from '../src/resources/registry.js';
import type { Resource } from '../src/resources/resource.js';
import type { SandboxOptions } from '../src/sandbox/server.js';
import { tempDir } from './helpers/tempDir.js';
import { testSandbox } from './helpers/sandbox.js';

const sandbox = (options: Partial<SandboxOptions> = {}) => testSandbox(options);

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
const order = (id: string) => ({
  id,
  total_paid_value: 100,
  creation_datetime: '2026-01-01T00:00:00Z',
  user: { id: 'U' },
  payments: [{ id: `P-${id}` }],
});
const post = (url: string, body: string) => fetch(`${url}/v2/order`, { method: 'POST', headers, body });
/**
 * An order whose `id` nests 100,000 objects deep: JSON.parse takes it, anything recursive over it overflows
 * the stack.
 */
const deepOrder = `${'{"id":'.repeat(100_000)}"A"${'}'.repeat(100_000)}`;
/** A valid order with a field nested 100,000 arrays deep. */
const deepField = `{"id":"B","total_paid_value":1,"items":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;

describe('a hostile request to the sandbox', () => {
  it('a path that is not valid percent-encoding is answered 400, and the sandbox goes on serving', async () => {
    const { url } = await sandbox();
    const answer = await fetch(`${url}/_sandbox/orders/%E0%A4%A`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error_message: expect.stringContaining('percent-encoded') });
    expect((await post(url, JSON.stringify(order('A')))).status).toBe(201);
  });
  it('a body nested 100,000 deep is answered 400 and judged too-deep, judging or not, recording or not', async () => {
    const record = join(tempDir('collect-hostile-'), 'requests.ndjson');
    let close = () => Promise.resolve();
    for (const options of [{}, { judge: { strict: false }, record }]) {
      const { url, report, ...started } = await sandbox(options);
      close = started.close;
      for (const body of [deepOrder, deepField]) expect((await post(url, body)).status).toBe(400);
      expect((await post(url, JSON.stringify(order('A')))).status).toBe(201);
      if (options.judge)
        expect(report()!.issues.map((issue) => `${issue.line} ${issue.code}`)).toEqual([
          '1 too-deep',
          '2 too-deep',
        ]);
    }
    await close();
    const lines = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.status)).toEqual([400, 400, 201]);
    expect(lines[0].body).toBe(deepOrder);
  });
  it(
    'an error of collect while handling a request is a 500 and a note in the report; the sandbox ' +
      'goes on serving',
    async () => {
      // A bug stand-in: an endpoint whose facts throw.
      const broken: Resource = {
        ...registry.get('status')!,
        name: 'broken',
        path: '/v2/broken',
        facts: () => {
          throw new Error('a bug of collect');
        },
      };
      const errors: unknown[] = [];
      const { url, report } = await sandbox({
        registry: createRegistry([...registry.all, broken]),
        judge: { strict: false },
        onError: (cause, doing) => errors.push(cause, doing),
      });
      const answer = await fetch(`${url}/v2/broken`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ id: 'A', status: 'approved' }),
      });
      expect(answer.status).toBe(500);
      expect(errors).toEqual([new Error('a bug of collect'), 'handling PUT /v2/broken (answered 500)']);
      expect((await post(url, JSON.stringify(order('A')))).status).toBe(201);
      expect(report()!.notes).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'internal-error', count: 1 })]),
      );
    },
  );
});

describe('the collect sandbox --report command, sent hostile requests', () => {
  it('goes on serving, and writes the report with every request on SIGTERM', async () => {
    const file = join(tempDir('collect-hostile-'), 'report.json');
    const child = spawn(process.execPath, ['dist/cli/main.js', 'sandbox', '--port', '0', '--report', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      child.on('exit', () => reject(new Error(stderr)));
    });
    expect((await fetch(`${url}/_sandbox/orders/%E0%A4%A`)).status).toBe(400);
    expect((await post(url, deepOrder)).status).toBe(400);
    expect((await post(url, deepField)).status).toBe(400);
    expect((await post(url, JSON.stringify(order('A')))).status).toBe(201);
    child.kill('SIGTERM');
    expect(await exit, stderr).toBe(1);
    const report = JSON.parse(readFileSync(file, 'utf8'));
    expect(report.summary).toMatchObject({ records: 3, invalid: 2 });
    expect(stderr).not.toContain('internal error');
  });
});
