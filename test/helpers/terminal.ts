import { spawn } from 'node-pty';
import { onTestFinished } from 'vitest';
import xtermHeadless from '@xterm/headless';

/**
 * What a person sees: the screen's lines (trailing blanks cut, empty lines at the bottom dropped) and where
 * the cursor is.
 */
export interface Screen {
  lines: string[];
  cursor: { row: number; col: number };
}

export interface TerminalSession {
  /** Every byte the program wrote, as it came (escape sequences and all). */
  output(): string;
  /** The screen as a terminal renders that output. */
  screen(): Promise<Screen>;
  /** Keys typed at the terminal (`\r` is Enter). */
  type(keys: string): void;
  /** Resolves once the output holds `text`; rejects with the output so far after `timeoutMs`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  /** The exit code. */
  exited: Promise<number>;
}

const { Terminal } = xtermHeadless;

/**
 * Runs the built `collect` on a real pseudo-terminal (node-pty) with the environment given and
 * nothing else, rendered by a headless xterm.js: what its user would see, line for line.
 */
export function onTerminal(
  argv: readonly string[],
  env: Record<string, string>,
  size = { cols: 120, rows: 40 },
  /** The program and its first arguments: the built bin by default, or the single binary. */
  [file, ...first]: readonly string[] = [process.execPath, 'dist/cli/main.js'],
): TerminalSession {
  const term = new Terminal({ ...size, allowProposedApi: true, scrollback: 1000 });
  const child = spawn(file!, [...first, ...argv], {
    ...size,
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...env },
  });
  let output = '';
  const waiters = new Set<() => void>();
  child.onData((data) => {
    output += data;
    term.write(data);
    for (const check of waiters) check();
  });
  let running = true;
  const exited = new Promise<number>((resolve) =>
    child.onExit(({ exitCode }) => {
      running = false;
      resolve(exitCode);
    }),
  );
  // A test that failed while the program waited must not leave it running.
  onTestFinished(() => {
    if (running) child.kill('SIGKILL');
    term.dispose();
  });
  return {
    output: () => output,
    type: (keys) => child.write(keys),
    exited,
    waitFor: (text, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!output.includes(text)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no ${JSON.stringify(text)} on the terminal after ${timeoutMs} ms; it shows:\n${output}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    screen: () =>
      new Promise<Screen>((resolve) => {
        // Written after everything before it is parsed.
        term.write('', () => {
          const buffer = term.buffer.active;
          const lines: string[] = [];
          for (let row = 0; row < buffer.length; row++)
            lines.push((buffer.getLine(row)?.translateToString(true) ?? '').trimEnd());
          while (lines.length > 0 && lines.at(-1) === '' && lines.length - 1 > buffer.baseY + buffer.cursorY)
            lines.pop();
          resolve({ lines, cursor: { row: buffer.baseY + buffer.cursorY, col: buffer.cursorX } });
        });
      }),
  };
}
