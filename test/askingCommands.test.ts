/**
 * Every command that asks before sending, driven on a real pseudo-terminal as its user would:
 * the question is the last line until answered (no progress drawn over it), `n` sends nothing,
 * `y` sends, Ctrl-C is exit 130 with nothing sent, and with no terminal and no --yes the command
 * is exit 2 before it reads anything. The cases are checked against the commands that declare
 * that they ask (src/cli/prompt.ts), so a new asking command fails here until it has its case.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fullProgram } from '../src/cli/run.js';
import { askingCommands } from '../src/cli/prompt.js';
import { startServer } from './helpers/localServer.js';
import { freshStateDir, runCli } from './helpers/memoryIo.js';
import { onTerminal } from './helpers/terminal.js';
import { tempDir } from './helpers/tempDir.js';

const env = { COLLECT_API_KEY: 'k-asking-commands' };

interface AskingCase {
  /** The command that asks (the case's name when not given): each form of a command has its case. */
  command?: string;
  question: string;
  /**
   * The command line that asks; `input` is what it reads on standard input when it has no terminal.
   * What it sends to `url` to get ready is not counted.
   */
  args: (url: string, input: 'file' | 'stdin') => string[] | Promise<string[]>;
  /** Requests sent on yes. */
  sends: number;
}

/** A state that knows the orders of the chargeback fixtures (ORD-2001 paid with TX-2001), sent to `url`. */
async function stateKnowingOrders(url: string): Promise<string> {
  const state = freshStateDir();
  const argv = ['order', 'fixtures/chargebacks/orders.ndjson', '--base-url', url, '--state', state];
  expect((await runCli(argv, { env })).code).toBe(0);
  return state;
}

function chargebackFiles(): { report: string; orders: string } {
  const dir = tempDir('collect-asking-');
  const report = join(dir, 'report.csv');
  const orders = join(dir, 'orders.csv');
  writeFileSync(
    report,
    'acquirer_id,network,reason_code,amount,currency,received_at\n' +
      'TX-1,visa,10.4,10,BRL,2024-04-02\nTX-2,visa,10.4,20,BRL,2024-04-03\n',
  );
  writeFileSync(orders, 'order_id,acquirer_id\nORD-1,TX-1\nORD-2,TX-2\n');
  return { report, orders };
}

const cases: Record<string, AskingCase> = {
  fraud: {
    question: 'Send this fraud mark? [y/N]',
    args: (url) => [
      'fraud',
      ...['--order-id', 'ORD-7', '--type', 'chargeback'],
      ...['--base-url', url, '--state', freshStateDir()],
    ],
    sends: 1,
  },
  'fraud --acquirer-id': {
    command: 'fraud',
    question: 'Send this fraud mark? [y/N]',
    args: async (url) => [
      'fraud',
      ...['--acquirer-id', 'TX-2001', '--type', 'chargeback'],
      ...['--base-url', url, '--state', await stateKnowingOrders(url)],
    ],
    sends: 1,
  },
  chargebacks: {
    question: 'Send 2 chargeback marks? [y/N]',
    args: (url, input) => {
      const { report, orders } = chargebackFiles();
      return [
        'chargebacks',
        ...(input === 'file' ? [report] : ['-', '--input-format', 'csv']),
        ...['--orders', orders, '--base-url', url, '--state', freshStateDir()],
      ];
    },
    sends: 2,
  },
};

async function service() {
  const server = await startServer(() => ({ status: 201, body: { message: 'ok' } }));
  onTestFinished(server.close);
  return server;
}

/** The command line of `entry`, ready to run against `server`, which has counted no request yet. */
async function commandLine(
  entry: AskingCase,
  server: { url: string; requests: unknown[] },
  input: 'file' | 'stdin',
) {
  const argv = await entry.args(server.url, input);
  server.requests.length = 0;
  return argv;
}

/** Runs the command on a terminal up to its question; says whether it stayed the last line and the cursor after it. */
async function asked(entry: AskingCase, server: { url: string; requests: unknown[] }) {
  const session = onTerminal(await commandLine(entry, server, 'file'), env);
  await session.waitFor(`${entry.question} `);
  // Long enough for a progress line (drawn every 250 ms) to have been drawn over the question.
  await sleep(1000);
  const screen = await session.screen();
  expect(screen.lines.at(-1)).toBe(entry.question);
  expect(screen.cursor).toEqual({ row: screen.lines.length - 1, col: entry.question.length + 1 });
  return session;
}

describe('every command that asks before sending', () => {
  it('has a case here', async () => {
    const program = await fullProgram((await import('../src/cli/processIo.js')).processIo(), () => {});
    const declared = new Set(Object.entries(cases).map(([name, entry]) => entry.command ?? name));
    expect(askingCommands(program).sort()).toEqual([...declared].sort());
  });

  describe.each(Object.entries(cases))('collect %s', (_name, entry) => {
    it('keeps the question the last line, echoes the answer as one line, and sends on y', async () => {
      const server = await service();
      const session = await asked(entry, server);
      session.type('y\r');
      expect(await session.exited).toBe(0);
      const { lines } = await session.screen();
      expect(lines.filter((line) => line.startsWith(entry.question))).toEqual([`${entry.question} y`]);
      expect(server.requests).toHaveLength(entry.sends);
    });

    it('sends nothing on n', async () => {
      const server = await service();
      const session = await asked(entry, server);
      session.type('n\r');
      expect(await session.exited).toBe(1);
      expect(server.requests).toHaveLength(0);
    });

    it('sends nothing and exits 130 on Ctrl-C', async () => {
      const server = await service();
      const session = await asked(entry, server);
      session.type('\u0003');
      expect(await session.exited).toBe(130);
      expect(server.requests).toHaveLength(0);
    });

    it('without a terminal and without --yes, is exit 2 before reading its input', async () => {
      const server = await service();
      // Standard input is a pipe left open: a command that read it (or asked on it) would wait for ever.
      const argv = await commandLine(entry, server, 'stdin');
      const child = spawn(process.execPath, ['dist/cli/main.js', ...argv], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      onTestFinished(() => void child.kill('SIGKILL'));
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain('add --yes');
      expect(stderr).not.toContain(entry.question);
      expect(stdout).toBe('');
      expect(server.requests).toHaveLength(0);
    });

    it('with --yes and no terminal, sends without asking', async () => {
      const server = await service();
      const { code, stderr } = await runCli([...(await commandLine(entry, server, 'file')), '--yes'], {
        env,
      });
      expect(code).toBe(0);
      expect(stderr).not.toContain(entry.question);
      expect(server.requests).toHaveLength(entry.sends);
    });
  });
});
