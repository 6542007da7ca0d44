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

export function processIo(): CliIo {
  return {
    stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, now: () => new Date(),
    untilStopped: () => new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
    onInterrupt: (handler) => {
      let count = 0;
      const listener = () => {
        if (++count === 1) handler();
        else process.exit(exitCodes.interrupted); // the journal is committed in groups: a re-run still loses nothing
      };
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
  };
}
