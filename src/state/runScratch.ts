import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** What a scratch needs of the world (the real one by default; tests pass their own). */
export interface ScratchWorld {
  host: string;
  pid: number;
  isAlive: (pid: number) => boolean;
}

/**
 * Whether a process of this host lives (EPERM: it does, another user's); the test by which a dead run's lock
 * is taken over.
 */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A host name as it may appear in a file name. */
const safe = (text: string) => text.replace(/[^A-Za-z0-9.]/g, '_');

const realWorld: ScratchWorld = { host: safe(hostname()), pid: process.pid, isAlive: processIsAlive };

/** A run's folder: `<host>-<pid>-<6 random characters>` (mkdtemp's). */
const FOLDER = /^(.+)-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Removes the folders in `base` of runs that died on this host: their pid is gone, the very test
 * by which the state lock is taken over at once. A live run's folder, another host's (a shared
 * folder), and anything not named as a run's folder are left alone.
 */
export function sweepDeadRuns(base: string, world: ScratchWorld = realWorld): string[] {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return []; // no folder yet: nothing was left
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = FOLDER.exec(name);
    if (!match || match[1] !== world.host) continue;
    const pid = Number(match[2]);
    if (pid === world.pid || world.isAlive(pid)) continue;
    try {
      rmSync(join(base, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Not ours to remove (another user's, a read-only folder): left, and the run goes on.
    }
  }
  return removed;
}

/** Tries again while another run removes the empty base between our making and using it (it removes it at its end). */
function whileBaseVanishes<T>(make: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return make();
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 100) throw cause;
    }
  }
}

/**
 * The user's own folder in the temporary directory, or undefined when it is not safely theirs (another user
 * made it, a link).
 */
function userFolder(tmp: string): string | undefined {
  const uid = process.getuid?.();
  const folder = join(tmp, `collect-${uid ?? safe(userInfo().username)}`);
  return whileBaseVanishes(() => {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    const stat = lstatSync(folder);
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) return undefined;
    if ((stat.mode & 0o077) !== 0) chmodSync(folder, 0o700);
    return folder;
  });
}

/**
 * A run's own folder for throwaway files (its run index and claims table, a mapping's related
 * rows), made when first needed and removed at its end. It is named after the host and the pid,
 * in a place the next run looks (beside the state, or the user's folder in the temporary
 * directory), so a run killed with `kill -9` leaves nothing for good: the next run removes it.
 */
export class RunScratch {
  private made: string | undefined;

  private constructor(
    private readonly base: string,
    private readonly prefix: string,
    private readonly removeBase: boolean,
  ) {}

  /** A scratch in `base` (a folder of the state's), once the leftovers of dead runs there are removed. */
  static in(base: string, world: ScratchWorld = realWorld): RunScratch {
    sweepDeadRuns(base, world);
    return new RunScratch(base, `${world.host}-${world.pid}-`, true);
  }

  /** A scratch in the user's own folder of the temporary directory (no state folder, or a PostgreSQL state). */
  static inTemp(tmp: string = tmpdir(), world: ScratchWorld = realWorld): RunScratch {
    const folder = userFolder(tmp);
    // A folder not safely the user's is neither used nor swept: a plain temporary folder of its own then.
    return folder ? RunScratch.in(folder, world) : new RunScratch(tmp, 'collect-', false);
  }

  /** The folder, made on first use. */
  dir(): string {
    return (this.made ??= whileBaseVanishes(() => {
      if (this.removeBase) mkdirSync(this.base, { recursive: true, mode: 0o700 });
      return mkdtempSync(join(this.base, this.prefix));
    }));
  }

  /** Removes the folder and what it holds, and the base if no other run uses it (nor left anything in it). */
  close(): void {
    if (this.made !== undefined) rmSync(this.made, { recursive: true, force: true });
    this.made = undefined;
    if (!this.removeBase) return;
    try {
      rmdirSync(this.base);
    } catch {
      // Another run's folder is in it, or it is gone already.
    }
  }
}
