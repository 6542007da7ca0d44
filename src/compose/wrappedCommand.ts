import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { streamRedactor } from './apiKey.js';

/**
 * How a wrapped command ended: its exit code (128 + the signal's number when a signal ended it, as a shell
 * says), or why it never ran.
 */
export type WrappedEnd = { code: number } | { failed: string };

export interface WrappedCommand {
  ended: Promise<WrappedEnd>;
  /** Passes a signal on to the command and everything it started (nothing once they have ended). */
  signal: (signal: NodeJS.Signals) => void;
}

/** Where a command's output goes when it must not reach the terminal as it is: through the redactor of `secret`. */
export interface RedactedOutput {
  secret: string;
  stdout: Writable;
  stderr: Writable;
}

/** How long what the command left running (`sleep 77 &`) gets to end on SIGTERM before SIGKILL. */
const LEFTOVER_GRACE_MS = 2000;

/** Process groups are POSIX's: on Windows the command is signalled alone. */
const groups = process.platform !== 'win32';

/** The reason a command could not start, in words. */
function startFailure(cause: NodeJS.ErrnoException): string {
  if (cause.code === 'ENOENT') return 'no such command (it is looked up on PATH, and run without a shell)';
  if (cause.code === 'EACCES') return 'not executable';
  return cause.code ?? cause.message;
}

/** Sends a signal to a process group; false once no process of it is left. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a process of the group still runs. A process that ended but was not reaped (a zombie:
 * its parent ended, and not every init reaps) still answers signal 0, so Linux's /proc is asked.
 */
function groupRuns(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After "pid (comm) ": state, parent, group.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (group === String(pgid) && state !== 'Z') return true;
  }
  return false;
}

/** Ends what the command left running in its group: SIGTERM, then SIGKILL after LEFTOVER_GRACE_MS. */
async function endLeftovers(pid: number): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + LEFTOVER_GRACE_MS;
  while (groupRuns(pid)) {
    if (Date.now() >= deadline) {
      signalGroup(pid, 'SIGKILL');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Copies a command's output to `target` through the key's redactor, even a key cut across pieces; resolves at
 * its end.
 */
async function redactInto(source: Readable, target: Writable, secret: string): Promise<void> {
  const redactor = streamRedactor(secret);
  source.setEncoding('utf8');
  for await (const text of source as AsyncIterable<string>) {
    const shown = redactor.write(text);
    if (shown !== '') target.write(shown);
  }
  const rest = redactor.end();
  if (rest !== '') target.write(rest);
}

/**
 * Runs `argv` (no shell) with `env`, in a process group of its own: signals go to the whole group,
 * and what it leaves running when it ends is ended too. Its stdin is collect's; its output is
 * collect's terminal, or goes through the key's redactor (`redacted`).
 */
export function startWrapped(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  redacted?: RedactedOutput,
): WrappedCommand {
  const [file, ...args] = argv;
  const child = spawn(file!, args, {
    stdio: redacted ? ['inherit', 'pipe', 'pipe'] : 'inherit',
    env,
    detached: groups,
  });
  const copied = redacted
    ? Promise.all([
        redactInto(child.stdout!, redacted.stdout, redacted.secret),
        redactInto(child.stderr!, redacted.stderr, redacted.secret),
      ])
    : Promise.resolve();
  let running = true;
  let done = false;
  const exited = new Promise<WrappedEnd>((resolve) => {
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
  const ended = (async () => {
    const end = await exited;
    if (groups && child.pid !== undefined) await endLeftovers(child.pid);
    // The group is gone: its id may be another's from now on.
    done = true;
    // Its output ends once nothing of its group holds it open.
    await copied.catch(() => {});
    return end;
  })();
  return {
    ended,
    signal: (signal) => {
      if (child.pid === undefined || done) return;
      if (groups) signalGroup(child.pid, signal);
      else if (running) child.kill(signal);
    },
  };
}
