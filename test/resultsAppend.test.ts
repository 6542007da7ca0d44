import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'sk_test_results-key-0123456789' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe('--results across runs', () => {
  it("appends: a re-run keeps the first run's answers (and evaluations) and adds its own", async () => {
    let healthy = false;
    const server = await startServer((request) =>
      healthy || request.body.includes('"A"')
        ? { status: 200, body: { decision: 'approve' } }
        : { status: 503, body: {} },
    );
    closers.push(server.close);
    const dir = tempDir('collect-results-');
    writeFileSync(
      join(dir, 'status.ndjson'),
      '{"id":"A","status":"approved"}\n{"id":"B","status":"approved"}\n',
    );
    const state = freshStateDir();
    const command = [
      'status',
      join(dir, 'status.ndjson'),
      '--base-url',
      server.url,
      '--state',
      state,
      '--retries',
      '0',
      '--results',
      join(dir, 'results.ndjson'),
    ];
    expect((await runCli(command, { env })).code).toBe(3);
    healthy = true;
    expect((await runCli(command, { env })).code).toBe(0);
    const lines = readFileSync(join(dir, 'results.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { key: string; status: number | null; error?: string; body?: unknown },
      );
    // The first run: A accepted with its evaluation, B failed; the re-run: B alone.
    expect(lines).toHaveLength(3);
    expect(
      lines
        .slice(0, 2)
        .map((line) => [line.key, line.status])
        .sort(),
    ).toEqual([
      ['A', 200],
      ['B', null],
    ]);
    expect(lines.find((line) => line.key === 'A')!.body).toEqual({ decision: 'approve' });
    expect(lines.find((line) => line.key === 'B')!.error).toContain('HTTP 503');
    expect([lines[2]!.key, lines[2]!.status]).toEqual(['B', 200]);
  });
});
