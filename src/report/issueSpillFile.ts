import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { LocatedIssue } from '../core/issue.js';
import type { IssueKey } from './groupIssues.js';
import type { IssueSpill, KeyedIssue } from './reportIssues.js';

/** Text gathered before one write, and read at a time per run while merging. */
const WRITE_CHARS = 256 * 1024;
const READ_BYTES = 64 * 1024;

type Line = [number, number, number, LocatedIssue];

/**
 * A report's issues past what it keeps in memory: runs of issues in report order, each one JSON
 * line `[file, index, seq, issue]`, appended to one throwaway file (0600, created at the first run,
 * removed by close) and read back a run at a time, a chunk at a time.
 */
export class IssueSpillFile implements IssueSpill {
  private fd: number | undefined;
  private size = 0;
  /** Each run's bytes in the file: offset and end. */
  private readonly runs: [number, number][] = [];
  private path: string | undefined;

  /** `dir`: the folder, or how to make it when the first issues come (most runs never spill). */
  constructor(private readonly dir: string | (() => string)) {}

  write(run: Iterable<KeyedIssue>): number {
    if (this.fd === undefined) {
      this.path = join(
        typeof this.dir === 'string' ? this.dir : this.dir(),
        `issues-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.ndjson`,
      );
      this.fd = openSync(this.path, 'wx+', 0o600);
    }
    const fd = this.fd;
    const start = this.size;
    let text = '';
    const flush = () => {
      const bytes = Buffer.from(text, 'utf8');
      writeSync(fd, bytes, 0, bytes.length, this.size);
      this.size += bytes.length;
      text = '';
    };
    for (const { key, issue } of run) {
      text += `${JSON.stringify([key[0], key[1], key[2], issue])}\n`;
      if (text.length >= WRITE_CHARS) flush();
    }
    flush();
    return this.runs.push([start, this.size]) - 1;
  }

  read(handle: number): Iterable<KeyedIssue> {
    const [start, end] = this.runs[handle]!;
    const fd = this.fd!;
    return {
      *[Symbol.iterator]() {
        const decoder = new StringDecoder('utf8');
        const chunk = Buffer.allocUnsafe(READ_BYTES);
        let rest = '';
        for (let at = start; at < end;) {
          const read = readSync(fd, chunk, 0, Math.min(READ_BYTES, end - at), at);
          if (read === 0) throw new Error(`the report's issue file ended early at byte ${at} of ${end}`);
          at += read;
          const lines = (rest + decoder.write(chunk.subarray(0, read))).split('\n');
          rest = lines.pop()!;
          for (const line of lines) {
            const [file, index, seq, issue] = JSON.parse(line) as Line;
            yield { key: [file, index, seq] as IssueKey, issue };
          }
        }
      },
    };
  }

  /** Removes the file. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    if (this.path !== undefined) rmSync(this.path, { force: true });
  }
}
