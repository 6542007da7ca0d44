import { exitCodes } from '../core/exitCodes.js';
import type { Readable, Writable } from 'node:stream';

type Tty = { isTTY?: boolean };

/** Everything the CLI touches of its process, passed in so tests can run it in memory. */
export interface CliIo {
  stdout: Writable & Tty;
  stderr: Writable & Tty;
  stdin: Readable & Tty;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
  /** Resolves when the user asks a long-running command (the sandbox) to stop. */
  untilStopped: () => Promise<void>;
  /**
   * Calls `handler` on the first Ctrl-C or SIGTERM (a supervisor's stop is a Ctrl-C too: in-flight
   * requests finish, the summary prints, exit 130); a second one ends the process at once (exit 130).
   * Returns the way to stop listening.
   */
  onInterrupt: (handler: () => void) => () => void;
  /** Called when a run only checks (a dry run), before it reads: the process caps its heaps' growth (heapGrowth.ts). */
  onCheckOnly?: () => void;
}

/** Who hears the next Ctrl-C or SIGTERM: a run, or the sandbox waiting to stop. */
const listeners = new Set<() => void>();

/**
 * The process's one listener of both signals, from its start: with nobody listening (starting up,
 * printing the report) a signal ends the process with 130 rather than Node's own 143 for SIGTERM.
 */
function dispatchSignal(): void {
  if (listeners.size === 0) process.exit(exitCodes.interrupted);
  for (const listener of [...listeners]) listener();
}

let installed = false;

export function processIo(): CliIo {
  if (!installed) {
    installed = true;
    process.on('SIGINT', dispatchSignal);
    process.on('SIGTERM', dispatchSignal);
  }
  return {
    stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, now: () => new Date(),
    untilStopped: () => new Promise((resolve) => {
      const stop = () => {
        listeners.delete(stop);
        resolve();
      };
      listeners.add(stop);
    }),
    onInterrupt: (handler) => {
      let count = 0;
      const listener = () => {
        if (++count === 1) handler();
        // Nothing of collect's own waits on Node's thread pool (a FIFO input is read as a pipe), so this exit is at once.
        else process.exit(exitCodes.interrupted); // the journal is committed in groups: a re-run still loses nothing
      };
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
