import { PassThrough, Readable } from 'node:stream';
import { MemoryWritable } from './memoryWritable.js';
import type { CliIo } from '../../src/terminal/io.js';
import { run } from '../../src/cli/run.js';
import { tempDir } from './tempDir.js';

export { MemoryWritable } from './memoryWritable.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh, empty state folder. */
export function freshStateDir(): string {
  return tempDir('collect-state-');
}

const CHECKING = new Set(['order', 'status', 'fraud', 'payment', 'delivery', 'backfill']);

/**
 * Runs `collect` in memory: no process, no terminal, a fixed clock. A checking command that
 * names no state folder gets a fresh one, so tests never share what earlier runs recorded.
 */
export async function runCli(
  argv: string[],
  options: {
    stdin?: string;
    env?: Record<string, string>;
    stdinIsTTY?: boolean;
    onCheckOnly?: () => void;
  } = {},
): Promise<CliResult> {
  const namesState = argv.some(
    (arg) => arg === '--no-state' || arg === '--state' || arg.startsWith('--state='),
  );
  if (CHECKING.has(argv[0] ?? '') && !namesState) argv = [...argv, '--state', freshStateDir()];
  const stdout = new MemoryWritable();
  const stderr = new MemoryWritable();
  const stdin = options.stdin === undefined ? new PassThrough() : Readable.from([Buffer.from(options.stdin)]);
  if (options.stdin === undefined) (stdin as PassThrough).end();
  const io: CliIo = {
    stdout,
    stderr,
    stdin: Object.assign(stdin, { isTTY: options.stdinIsTTY ?? false }),
    env: options.env ?? {},
    now: () => new Date('2025-01-01T00:00:00Z'),
    onInterrupt: () => () => {},
    onFatal: () => () => {},
    // A long-running command (the sandbox) is asked to stop at once.
    onStop: (handler) => {
      queueMicrotask(() => handler('SIGINT'));
      return () => {};
    },
    ...(options.onCheckOnly ? { onCheckOnly: options.onCheckOnly } : {}),
  };
  const code = await run(argv, io);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** An io that reads nothing and keeps what is written: to build the program without running it. */
export function quietIo(): CliIo {
  const stdin = new PassThrough();
  stdin.end();
  return {
    stdout: new MemoryWritable(),
    stderr: new MemoryWritable(),
    stdin: Object.assign(stdin, { isTTY: false }),
    env: {},
    now: () => new Date('2025-01-01T00:00:00Z'),
    onInterrupt: () => () => {},
    onFatal: () => () => {},
    onStop: () => () => {},
  };
}
