import { exitCodes } from '../core/exitCodes.js';
import type { CliIo, StopSignal } from '../terminal/io.js';
import { startedByNpx, watchProcess } from './launcher.js';
import { internalErrorText } from '../terminal/internalError.js';

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

/** The CliIo of this process: its streams, environment, clock, and one listener of its signals. */
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
        // Nothing of collect's own waits on Node's thread pool (a FIFO input is read as a pipe), so this exit
        // is at once.
        else process.exit(exitCodes.interrupted); // the journal is committed in groups: a re-run still loses nothing
      };
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
