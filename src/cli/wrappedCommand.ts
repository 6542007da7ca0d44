import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** How a wrapped command ended: its exit code (128 + the signal's number when a signal ended it, as a shell says), or why it never ran. */
export type WrappedEnd = { code: number } | { failed: string };

export interface WrappedCommand {
  ended: Promise<WrappedEnd>;
  /** Passes a signal on to the command (nothing once it has ended). */
  signal: (signal: NodeJS.Signals) => void;
}

/** The reason a command could not start, in words. */
function startFailure(cause: NodeJS.ErrnoException): string {
  if (cause.code === 'ENOENT') return 'no such command (it is looked up on PATH, and run without a shell)';
  if (cause.code === 'EACCES') return 'not executable';
  return cause.code ?? cause.message;
}

/** Runs `argv` (no shell) with the terminal of collect (stdin, stdout, stderr inherited) and `env`. */
export function startWrapped(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): WrappedCommand {
  const [file, ...args] = argv;
  const child = spawn(file!, args, { stdio: 'inherit', env });
  let running = true;
  const ended = new Promise<WrappedEnd>((resolve) => {
    child.on('error', (cause) => {
      // An error of a command that started (a signal it could not be sent) is no end of it.
      if (child.pid !== undefined) return;
      running = false;
      resolve({ failed: startFailure(cause) });
    });
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code: code ?? 128 + (signal ? constants.signals[signal] : 0) });
    });
  });
  return {
    ended,
    signal: (signal) => {
      if (running && child.pid !== undefined) child.kill(signal);
    },
  };
}
