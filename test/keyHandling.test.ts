/** The key: refused when it cannot be one, and never shown in any encoding a server could echo it in. */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { echoingServer } from './helpers/hostileServers.js';
import { runCli } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

const KEY = 'sk_live/Ab+c"d\\e?f=g&h~0123';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function workdir(): string {
  const dir = tempDir('collect-key-');
  writeFileSync(
    join(dir, 'status.ndjson'),
    '{"id":"A","status":"approved"}\n{"id":"B","status":"approved"}\n',
  );
  return dir;
}

/** The forms a careless server echoes a key in. */
const echoed = (key: string) => [
  key,
  JSON.stringify(key).slice(1, -1),
  encodeURIComponent(key),
  Buffer.from(key).toString('base64'),
  Buffer.from(`Bearer ${key}`).toString('base64'),
  Buffer.from(`x:${key}`).toString('base64url'),
];

describe('a server that echoes the key', () => {
  it('never gets it into stdout, stderr, --results or --rejects, in any of its encodings', async () => {
    const server = await echoingServer(echoed);
    closers.push(server.close);
    const dir = workdir();
    const outputs: string[] = [];
    for (const format of ['pretty', 'json']) {
      const { code, stdout, stderr } = await runCli(
        [
          'status',
          join(dir, 'status.ndjson'),
          '--base-url',
          server.url,
          '--no-state',
          '--format',
          format,
          '--results',
          join(dir, `results-${format}.ndjson`),
          '--rejects',
          join(dir, `rejects-${format}.ndjson`),
        ],
        { env: { COLLECT_API_KEY: KEY } },
      );
      expect(code).toBe(1);
      outputs.push(
        stdout,
        stderr,
        readFileSync(join(dir, `results-${format}.ndjson`), 'utf8'),
        readFileSync(join(dir, `rejects-${format}.ndjson`), 'utf8'),
      );
    }
    expect(server.hits).toBe(4);
    const everything = outputs.join('\n');
    expect(everything).toContain('[REDACTED]');
    for (const form of [...echoed(KEY), JSON.stringify(JSON.stringify(KEY))])
      expect(everything).not.toContain(form);
    // Not even a recognisable part of it.
    expect(everything).not.toContain(KEY.slice(4, -4));
    expect(everything).not.toContain(Buffer.from(KEY).toString('base64').slice(4, -4));
  });
});

describe('a key that cannot be one is refused before anything is sent', () => {
  it.each([
    ['k', 'COLLECT_API_KEY is 1 character long, too short to be a key'],
    ['sk_test_0123\u0001456789', 'COLLECT_API_KEY contains a control character'],
    ['sk_test_0123456789\nsecond', 'COLLECT_API_KEY has several lines'],
  ])('COLLECT_API_KEY=%j', async (key, message) => {
    const server = await echoingServer(echoed);
    closers.push(server.close);
    const { code, stdout, stderr } = await runCli(
      [
        'status',
        join(workdir(), 'status.ndjson'),
        '--base-url',
        server.url,
        '--no-state',
        '--format',
        'json',
      ],
      { env: { COLLECT_API_KEY: key } },
    );
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
    expect(server.hits).toBe(0);
  });

  it.skipIf(process.platform === 'win32')(
    'a key file others can read: exit 2 and chmod 600, like ssh',
    async () => {
      const server = await echoingServer(echoed);
      closers.push(server.close);
      const dir = workdir();
      const file = join(dir, 'key');
      writeFileSync(file, `${KEY}\n`);
      chmodSync(file, 0o644);
      const { code, stderr } = await runCli([
        'status',
        join(dir, 'status.ndjson'),
        '--base-url',
        server.url,
        '--no-state',
        '--api-key-file',
        file,
      ]);
      expect(code).toBe(2);
      expect(stderr).toContain(`fix: chmod 600 ${file}`);
      expect(server.hits).toBe(0);
    },
  );

  it('a key file with two lines', async () => {
    const server = await echoingServer(echoed);
    closers.push(server.close);
    const dir = workdir();
    const file = join(dir, 'key');
    writeFileSync(file, 'sk_test_0123456789\nsk_test_9876543210\n', { mode: 0o600 });
    const { code, stderr } = await runCli([
      'status',
      join(dir, 'status.ndjson'),
      '--base-url',
      server.url,
      '--no-state',
      '--api-key-file',
      file,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('has 2 lines');
    expect(server.hits).toBe(0);
  });

  // The built binary in a child: the old code blocked on the FIFO for ever and read /dev/zero without end
  // (5.8 GB in 10 s).
  it.skipIf(process.platform === 'win32')(
    'a FIFO with no writer, or /dev/zero: exit 2 at once, naming the file',
    () => {
      const dir = workdir();
      const fifo = join(dir, 'key.fifo');
      spawnSync('mkfifo', ['-m', '600', fifo]);
      for (const [file, kind] of [
        [fifo, 'a FIFO (named pipe)'],
        ['/dev/zero', 'a device'],
      ] as const) {
        const result = spawnSync(
          process.execPath,
          [
            'dist/cli/main.js',
            'status',
            join(dir, 'status.ndjson'),
            '--base-url',
            'http://127.0.0.1:9',
            '--no-state',
            '--api-key-file',
            file,
          ],
          {
            encoding: 'utf8',
            env: { PATH: process.env.PATH ?? '' },
            timeout: 60_000,
            killSignal: 'SIGKILL',
          },
        );
        expect(result.status).toBe(2);
        expect(result.stderr).toContain(`--api-key-file ${file}: is ${kind}, not a regular file; refused`);
      }
    },
  );
});

describe('a dry run with COLLECT_API_KEY set', () => {
  it('never shows the key a transform quotes: not on stdout (pretty, json), stderr or in --rejects', async () => {
    const dir = workdir();
    // A transform that reads the key for a lookup of its own and quotes it in an error (base64 too, as in a
    // Basic header).
    writeFileSync(
      join(dir, 'transform.mjs'),
      `export default () => { throw new Error('lookup refused token ' + ${JSON.stringify(KEY)} + ' ` +
        `/ ' + ${JSON.stringify(Buffer.from(`x:${KEY}`).toString('base64'))}); };\n`,
    );
    writeFileSync(
      join(dir, 'broken.mjs'),
      `throw new Error('cannot start with ' + ${JSON.stringify(KEY)});\n`,
    );
    const outputs: string[] = [];
    for (const format of ['pretty', 'json']) {
      const rejects = join(dir, `rejects-${format}.ndjson`);
      const { code, stdout, stderr } = await runCli(
        [
          'status',
          join(dir, 'status.ndjson'),
          '--dry-run',
          '--no-state',
          '--format',
          format,
          '--transform',
          join(dir, 'transform.mjs'),
          '--rejects',
          rejects,
        ],
        { env: { COLLECT_API_KEY: KEY } },
      );
      expect(code).toBe(1);
      expect(stdout).toContain('transform-failed');
      outputs.push(stdout, stderr, readFileSync(rejects, 'utf8'));
    }
    const broken = await runCli(
      [
        'status',
        join(dir, 'status.ndjson'),
        '--dry-run',
        '--no-state',
        '--transform',
        join(dir, 'broken.mjs'),
      ],
      { env: { COLLECT_API_KEY: KEY } },
    );
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('cannot start with [REDACTED]');
    outputs.push(broken.stdout, broken.stderr);
    const everything = outputs.join('\n');
    expect(everything).toContain('[REDACTED]');
    for (const form of echoed(KEY)) expect(everything).not.toContain(form);
  });
});
