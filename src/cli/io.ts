import { exitCodes } from '../core/exitCodes.js';
import { startedByNpx, watchProcess } from './launcher.js';
import { internalErrorText } from './internalError.js';
import type { Readable, Writable } from 'node:stream';

type Tty = { isTTY?: boolean };

/** The signals that ask a long-running command (the sandbox) to stop. */
export const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof stopSignals)[number];

/** Everything the CLI touches of its process, passed in so tests can run it in memory. */
export interface CliIo {
  stdout: Writable & Tty;
  stderr: Writable & Tty;
  stdin: Readable & Tty;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
  /**
   * Calls `handler` with each stop signal a long-running command (the sandbox) gets (Ctrl-C, SIGTERM,
   * SIGHUP), and with SIGTERM when the npx that started it has ended. Returns the way to stop listening.
   */
  onStop: (handler: (signal: StopSignal) => void) => () => void;
  /**
   * Calls `handler` (once) when an error nothing caught is about to end the process (then exit 70, with
   * the internal-error message), or the process exits otherwise, so a command can leave its files whole.
   * Returns the way to stop listening.
   */
  onFatal: (handler: () => void) => () => void;
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
const listeners = new Set<(signal: StopSignal) => void>();

/**
 * The process's one listener of both signals, from its start: with nobody listening (starting up,
 * printing the report) a signal ends the process with 130 rather than Node's own 143 for SIGTERM.
 */
function dispatchSignal(signal: StopSignal): void {
  if (listeners.size === 0) process.exit(exitCodes.interrupted);
  for (const listener of [...listeners]) listener(signal);
}

let installed = false;

export function processIo(): CliIo {
  if (!installed) {
    installed = true;
    process.on('SIGINT', dispatchSignal);
    process.on('SIGTERM', dispatchSignal);
  }
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    now: () => new Date(),
    onStop: (handler) => {
      // SIGINT and SIGTERM through the process's one listener; SIGHUP only while a long-running command listens.
      const listener = (signal: StopSignal) => handler(signal);
      const hangUp = () => handler('SIGHUP');
      listeners.add(listener);
      process.on('SIGHUP', hangUp);
      const unwatch = startedByNpx(process.env)
        ? watchProcess(process.ppid, () => handler('SIGTERM'))
        : () => {};
      return () => {
        listeners.delete(listener);
        process.off('SIGHUP', hangUp);
        unwatch();
      };
    },
    onFatal: (handler) => {
      let called = false;
      const once = () => {
        if (!called) {
          called = true;
          handler();
        }
      };
      const listener = (cause: unknown) => {
        try {
          once();
        } finally {
          process.stderr.write(internalErrorText(cause, process.env));
          process.exit(exitCodes.internal);
        }
      };
      // Any other way out while the handler is set (a process.exit elsewhere: a closed output pipe) gets it too.
      process.on('exit', once);
      process.on('uncaughtException', listener);
      process.on('unhandledRejection', listener);
      return () => {
        process.off('exit', once);
        process.off('uncaughtException', listener);
        process.off('unhandledRejection', listener);
      };
    },
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
