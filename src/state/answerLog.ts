import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StateError } from './stateErrors.js';
import type { Shard } from './stateLock.js';

/** The part of an answer file's name that says whose it is: the whole run's, or one shard's (shards of one split run side by side on one state). */
const labelOf = (shard: Shard | undefined) => (shard ? `shard-${shard.index}of${shard.count}` : 'all');

function shardOf(label: string): Shard | undefined {
  const match = /^shard-(\d+)of(\d+)$/.exec(label);
  return match ? { index: Number(match[1]), count: Number(match[2]) } : undefined;
}

/**
 * The answers a sending run remembered and the state file may not hold yet, one file per batch
 * of the background writer (`<state>-answers-<all|shard-IofN>.<batch>`), each line one group's writes (the
 * writer's flat list: a statement's position, then its parameters). A group is durable against
 * kill -9 once its line is written (one write(2), in the kernel's cache: the state's own WAL with
 * synchronous=NORMAL promises no more), so a run commits its answers to SQLite in batches of
 * thousands on the writer's thread instead of a transaction per window on its own. A batch's
 * file is removed once the writer committed it; the next run to take the lock replays the files
 * left by a run that was killed.
 */
export class AnswerLog {
  private fd: number | undefined;
  /** The batch whose file is open (or opens at the next append). */
  private batch = 1;
  private readonly written = new Set<number>();

  private readonly prefix: string;

  constructor(statePath: string, shard?: Shard) {
    this.prefix = `${statePath}-answers-${labelOf(shard)}.`;
  }

  /** Appends one group's writes to the file of the batch being listed. */
  append(ops: readonly unknown[]): void {
    if (ops.length === 0) return;
    this.fd ??= openSync(this.fileOf(this.batch), 'a', 0o600);
    this.written.add(this.batch);
    writeSync(this.fd, `${JSON.stringify(ops)}\n`);
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
      rmSync(this.fileOf(written), { force: true });
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
   * The files killed runs left that a run holding the lock of `shard` may commit: all but those
   * of the other shards of its split, which may be running. Oldest first, each with its groups
   * (a line cut short by a kill is no group: its answers never counted as kept).
   */
  static leftBy(statePath: string, shard?: Shard): { file: string; groups: unknown[][] }[] {
    try {
      return AnswerLog.read(statePath, shard);
    } catch (cause) {
      throw new StateError(`cannot read the answers a killed run left beside the state file ${statePath} (${(cause as Error).message})`, `move the files ${statePath}-answers-* aside, then run the same command again: their answers are sent again`);
    }
  }

  private static read(statePath: string, shard: Shard | undefined): { file: string; groups: unknown[][] }[] {
    const prefix = `${basename(statePath)}-answers-`;
    const folder = dirname(statePath);
    // Those whose run could hold its lock beside this one's (stateLock.ts overlaps) are not its own.
    const mine = (label: string) => {
      const theirs = shardOf(label);
      return !shard || !theirs || theirs.count !== shard.count || theirs.index === shard.index;
    };
    return readdirSync(folder)
      .map((name) => ({ name, match: name.startsWith(prefix) ? /^(all|shard-\d+of\d+)\.(\d+)$/.exec(name.slice(prefix.length)) : null }))
      .filter(({ match }) => match !== null && mine(match[1]!))
      .map(({ name, match }) => ({ file: join(folder, name), batch: Number(match![2]) }))
      .map((left) => ({ ...left, at: statSync(left.file).mtimeMs }))
      .sort((a, b) => a.at - b.at || a.batch - b.batch)
      .map(({ file }) => {
        const lines = readFileSync(file, 'utf8').split('\n');
        const groups: unknown[][] = [];
        for (const line of lines.slice(0, -1)) groups.push(JSON.parse(line) as unknown[]);
        return { file, groups };
      });
  }
}
