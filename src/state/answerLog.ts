import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * The answers a sending run remembered and the state file may not hold yet, one file per batch
 * of the background writer (`<state>-answers.<batch>`), each line one group's writes (the
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

  constructor(private readonly statePath: string) {}

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
    return `${this.statePath}-answers.${batch}`;
  }

  /** The files an earlier run left, oldest batch first: each with its groups (a line cut short by a kill is no group: its answers never counted as kept). */
  static leftBy(statePath: string): { file: string; groups: unknown[][] }[] {
    const prefix = `${basename(statePath)}-answers.`;
    const folder = dirname(statePath);
    return readdirSync(folder)
      .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
      .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)))
      .map((name) => {
        const file = join(folder, name);
        const lines = readFileSync(file, 'utf8').split('\n');
        const groups: unknown[][] = [];
        for (const line of lines.slice(0, -1)) groups.push(JSON.parse(line) as unknown[]);
        return { file, groups };
      });
  }
}
