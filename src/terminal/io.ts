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
