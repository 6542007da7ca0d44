/**
 * The single binary (`npm run build:binary`, docs/binary.md) on a PATH with no Node: each command
 * runs as the npm-installed bin runs it (same output, same exit code), its worker threads started
 * from the binary. It runs only when a binary is named (`npm run test:binary`, .ci/run: COLLECT_BINARY;
 * vitest.config.ts leaves it out of `npm test` otherwise), and a missing binary fails.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { generateOrders } from '../bench/generate-orders.js';
import { startServer } from './helpers/localServer.js';
import { tempDir } from './helpers/tempDir.js';
import { onTerminal } from './helpers/terminal.js';

const binary = resolve(process.env.COLLECT_BINARY ?? 'dist/bin/collect-linux-x64');
/** The npm-installed bin it is compared with. */
const BIN = resolve('dist/cli/collect.cjs');
/** PATH without any directory that holds a node. */
const noNodePath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => dir !== '' && !existsSync(join(dir, 'node')))
  .join(delimiter);
/** This file's folder, made before its checks run. */
let dir = '';
/** A few runs of 200,000 rows each on two shared cores. */
const SLOW = { timeout: 300_000 };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the binary on a PATH with no Node, or the bin with this test's Node. */
function run(which: 'binary' | 'npm', args: string[], env: Record<string, string> = {}): Promise<Run> {
  const [file, first] = which === 'binary' ? [binary, []] : [process.execPath, [BIN]];
  const child = spawn(file, [...first, ...args], {
    env: { PATH: which === 'binary' ? noNodePath : (process.env.PATH ?? ''), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  let [stdout, stderr] = ['', ''];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A `collect sandbox` of `which` on a free port, with its URL once it listens. */
async function sandbox(which: 'binary' | 'npm'): Promise<string> {
  const [file, first] = which === 'binary' ? [binary, []] : [process.execPath, [BIN]];
  const child = spawn(file, [...first, 'sandbox', '--port', '0'], {
    env: { PATH: which === 'binary' ? noNodePath : (process.env.PATH ?? '') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void child.kill('SIGTERM'));
  let output = '';
  return new Promise((done, fail) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url) done(url);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('error', fail);
    child.on('close', (code) =>
      fail(new Error(`the sandbox ended (${code}) before it listened:\n${output}`)),
    );
  });
}

const checks = () => {
  beforeAll(() => void (dir = tempDir('collect-binary-')));

  it('is there (npm run test:binary and CI build it before this test)', () => {
    expect(existsSync(binary), `no single binary at ${binary}: build it with npm run build:binary`).toBe(
      true,
    );
    expect(noNodePath.split(delimiter).some((path) => existsSync(join(path, 'node')))).toBe(false);
  });

  it("prints the README's first run as the npm bin does", async () => {
    const args = ['order', 'fixtures/order/invalid.csv', '--dry-run'];
    const [alone, npm] = await Promise.all([run('binary', args), run('npm', args)]);
    expect(alone.code).toBe(1);
    expect(alone.stdout).toContain('3 records: 0 valid, 3 invalid');
    expect(alone).toEqual(npm);
  });

  it("reads an acquirer's report by its shipped format, the formats being data inside the binary", async () => {
    const report = [
      'chargebacks',
      'fixtures/chargebacks/formats/stripe-disputes.json',
      '--dry-run',
      '--no-state',
    ];
    for (const args of [
      ['chargebacks', '--formats'],
      [...report, '--orders', 'fixtures/chargebacks/formats/orders.ndjson'],
    ]) {
      const [alone, npm] = await Promise.all([run('binary', args), run('npm', args)]);
      expect(alone).toEqual(npm);
      expect(alone.stdout).toContain('stripe-disputes');
    }
  });

  it("loads a --transform module from the user's folder (the binary's own import() loads built-ins only)", async () => {
    const transform = join(dir, 'prefix.mjs');
    writeFileSync(transform, 'export default (record) => ({ ...record, id: `T-${record.id ?? 1}` });\n');
    const args = ['order', 'fixtures/order/invalid.csv', '--dry-run', '--transform', transform];
    const [alone, npm] = await Promise.all([run('binary', args), run('npm', args)]);
    expect(alone.stdout).toContain('1 valid');
    expect(alone.stderr).toBe('');
    expect(alone).toEqual(npm);
  });

  it('checks a 200,000-row CSV on its worker threads, with the same report', SLOW, async () => {
    const csv = join(dir, 'orders.csv');
    await generateOrders(csv, 200_000);
    const states = ['binary', 'npm'].map((name) => mkdtempSync(join(dir, `state-${name}-`)));
    const args = (state: string) => ['order', csv, '--dry-run', '--state', state];
    // NODE_DEBUG=collect: src/platform/singleBinary.ts says where each worker thread started from.
    const alone = await run('binary', args(states[0]!), { NODE_DEBUG: 'collect' });
    const npm = await run('npm', args(states[1]!));
    expect(alone.code).toBe(1);
    expect(alone.stdout).toContain('200000 records: 199800 valid, 200 invalid');
    expect(alone.stdout).toBe(npm.stdout);
    expect(alone.code).toBe(npm.code);
    expect(alone.stderr).toMatch(/worker pieceWorker\.js started from the binary/);
    expect(alone.stderr).toMatch(/worker stateWriterWorker\.js started from the binary/);
    expect(alone.stderr).not.toMatch(/from its file/);
    // The state the writer thread committed: a dry run with --state remembers what it found valid.
    expect(readdirSync(states[0]!).sort()).toEqual(readdirSync(states[1]!).sort());
  });

  it('runs the sandbox and backfills the history to it, as the npm bin does', SLOW, async () => {
    const sends = await Promise.all(
      (['binary', 'npm'] as const).map(async (which) => {
        const url = await sandbox(which);
        const results = join(mkdtempSync(join(dir, `backfill-${which}-`)), 'results.ndjson');
        const state = mkdtempSync(join(dir, `backfill-state-${which}-`));
        const sent = await run(
          which,
          ['backfill', 'fixtures/history', '--base-url', url, '--results', results, '--state', state],
          { COLLECT_API_KEY: 'sandbox-key' },
        );
        const decisions = readFileSync(results, 'utf8').match(/"legiti_decision":"\w+"/g);
        return { code: sent.code, stdout: sent.stdout.replaceAll(url, 'URL'), decisions };
      }),
    );
    expect(sends[0]!.code).toBe(0);
    expect(sends[0]!.decisions).toContain('"legiti_decision":"reject"');
    expect(sends[0]).toEqual(sends[1]);
  });

  it('asks the by-hand fraud question on a terminal and sends on y', async () => {
    const server = await startServer(() => ({ status: 201, body: { message: 'ok' } }));
    onTestFinished(server.close);
    const question = 'Send this fraud mark? [y/N]';
    const args = ['fraud', '--order-id', 'ORD-7', '--type', 'chargeback', '--base-url', server.url];
    const state = mkdtempSync(join(dir, 'fraud-state-'));
    const session = onTerminal(
      [...args, '--state', state],
      { PATH: noNodePath, COLLECT_API_KEY: 'k-binary' },
      undefined,
      [binary],
    );
    await session.waitFor(`${question} `);
    session.type('y\r');
    expect(await session.exited).toBe(0);
    const { lines } = await session.screen();
    expect(lines.filter((line) => line.startsWith(question))).toEqual([`${question} y`]);
    expect(server.requests).toHaveLength(1);
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ order_id: 'ORD-7' });
  });
};

describe('the single binary, with no Node on PATH', checks);
