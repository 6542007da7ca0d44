import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StateError } from './stateErrors.js';

/** The first line of every answer file: what its write codes name (a later collect may number its writes otherwise). */
export interface AnswerHeader {
  collectAnswers: 1;
  writes: readonly string[];
}

/** What killed runs left: each file's header and groups, oldest run first, each run's batches in order. */
export interface LeftAnswers {
  files: string[];
  groups: { writes: readonly string[]; ops: unknown[] }[];
}

/** `answers-<owner>-<run>.<batch>`: the run that holds it now (its writer, or the run that claimed it), and the run that wrote it. */
const NAME = /^answers-([0-9a-f-]{36})-([0-9a-f-]{36})\.(\d+)$/;

/** Writes all of `text` (write(2) may write less, on a full disk): on a failure the file is cut back to where it was, so no line is ever half there. */
function appendWhole(fd: number, text: string, size: number): number {
  const bytes = Buffer.from(text);
  try {
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch (cause) {
    try {
      ftruncateSync(fd, size);
    } catch {
      // The line stays cut short: replay drops a line it cannot read.
    }
    throw cause;
  }
  return size + bytes.length;
}

/**
 * The answers a sending run remembered and the state file may not hold yet, one file per batch
 * of the background writer (`<state>-answers-<owner>-<run>.<batch>`, both its run's lock token
 * while it writes), a header line then one line
 * per group of writes (the writer's flat list: a write's code, then its parameters). A group is
 * durable against kill -9 once its line is written (in the kernel's cache: the state's own WAL
 * with synchronous=NORMAL promises no more), so a run commits its answers to SQLite in batches of
 * thousands on the writer's thread instead of a transaction per window on its own. A batch's file
 * is removed once the writer committed it. A run that takes the lock claims (renames to its own
 * token as owner) and commits the files whose owner holds no lock any more, so runs side by side
 * (shards) never take each other's; a run whose file was claimed (its lock was taken over while it
 * was stopped) sees it at its next append and commits the rest itself.
 */
export class AnswerLog {
  private fd: number | undefined;
  private size = 0;
  /** The batch whose file is open (or opens at the next append). */
  private batch = 1;
  private readonly written = new Set<number>();
  private readonly prefix: string;

  constructor(statePath: string, token: string, private readonly header: AnswerHeader) {
    this.prefix = `${statePath}-answers-${token}-${token}.`;
  }

  /** Appends one group's writes to the batch's file. False: another run claimed the file (nothing more goes in it). */
  append(ops: readonly unknown[]): boolean {
    if (ops.length === 0) return true;
    const path = this.fileOf(this.batch);
    if (this.fd === undefined) {
      this.fd = openSync(path, 'a', 0o600);
      this.size = appendWhole(this.fd, `${JSON.stringify(this.header)}\n`, fstatSync(this.fd).size);
      this.written.add(this.batch);
    }
    this.size = appendWhole(this.fd, `${JSON.stringify(ops)}\n`, this.size);
    // Renamed away by a run that took this one's lock over (no other run makes a file of this name): the line may be past what it read.
    return existsSync(path);
  }

  /** The batch being listed was handed to the writer: the next group goes in the next batch's file. */
  seal(batch: number): void {
    this.close();
    this.batch = batch + 1;
  }

  /** Removes the files of the batches the writer committed, up to `batch`. */
  drop(batch: number): void {
    for (const written of this.written) {
      if (written > batch) continue;
      if (written === this.batch) this.close();
      try {
        rmSync(this.fileOf(written), { force: true });
      } catch (cause) {
        // Its answers are committed: left behind, the file is only committed again by the next run.
        throw new StateError(`cannot remove ${this.fileOf(written)}, whose answers are in the state (${(cause as Error).message})`, 'check the rights on the state folder, then run the same command again');
      }
      this.written.delete(written);
    }
  }

  private close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private fileOf(batch: number): string {
    return `${this.prefix}${batch}`;
  }

  /**
   * Claims for the run `me` the files whose owner holds no lock now (`live`: the tokens of the
   * locks held) and reads them: oldest run first, each run's batches in order.
   * A line cut short by a kill is no group (its answers never counted as kept). Remove the files
   * (`remove`) once their writes are committed.
   */
  static claimLeft(statePath: string, me: string, live: ReadonlySet<string>): LeftAnswers {
    try {
      return readClaimed(statePath, me, live);
    } catch (cause) {
      throw new StateError(`cannot read the answers a killed run left beside the state file ${statePath} (${(cause as Error).message})`, `move the files ${statePath}-answers-* aside, then run the same command again: their answers are sent again`);
    }
  }

  static remove(files: readonly string[]): void {
    for (const file of files) rmSync(file, { force: true });
  }
}

function readClaimed(statePath: string, me: string, live: ReadonlySet<string>): LeftAnswers {
  const folder = dirname(statePath);
  const base = `${basename(statePath)}-`;
  const left: { file: string; run: string; batch: number; at: number }[] = [];
  for (const name of readdirSync(folder)) {
    const match = name.startsWith(base) ? NAME.exec(name.slice(base.length)) : null;
    if (!match || live.has(match[1]!)) continue;
    const file = join(folder, `${base}answers-${me}-${match[2]}.${match[3]}`);
    try {
      renameSync(join(folder, name), file);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') continue; // a run beside this one claimed it first
      throw cause;
    }
    left.push({ file, run: match[2]!, batch: Number(match[3]), at: statSync(file).mtimeMs });
  }
  // A run's files in batch order; runs by when their first file was written.
  const started = new Map<string, number>();
  for (const { run, at } of left) started.set(run, Math.min(started.get(run) ?? Infinity, at));
  left.sort((a, b) => started.get(a.run)! - started.get(b.run)! || a.run.localeCompare(b.run) || a.batch - b.batch);
  const groups: LeftAnswers['groups'] = [];
  for (const { file } of left) {
    const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
    const header = parsed(lines[0]) as AnswerHeader | undefined;
    if (header?.collectAnswers !== 1 || !Array.isArray(header.writes)) throw new Error(`${file} is not an answer file of this collect`);
    for (const line of lines.slice(1)) {
      const ops = parsed(line);
      if (Array.isArray(ops)) groups.push({ writes: header.writes, ops });
    }
  }
  return { files: left.map(({ file }) => file), groups };
}

/** A line's JSON, or undefined for one cut short (a kill in the middle of a write that could not be cut back). */
function parsed(line: string | undefined): unknown {
  try {
    return line === undefined ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
}
