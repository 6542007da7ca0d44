/**
 * No leftovers: a run killed with SIGKILL while its records are indexed in a throwaway file
 * leaves that file only until the next run, which removes it; a live run's files are never touched.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nd } from './helpers/history.js';
import { freshStateDir } from './helpers/memoryIo.js';
import { tempDir } from './helpers/tempDir.js';

/**
 * What each run here holds in memory (COLLECT_MEMORY_RECORDS): past it the run index and the report's issues
 * go to files.
 */
const MEMORY_RECORDS = 2_000;
/** Past MEMORY_RECORDS: the run index moves to a file (runIndex.ts). */
const RECORDS = 6_000;
/** Several runs per test, on a machine that may be busy. */
const SLOW = { timeout: 120_000 };

function statusFile(count = RECORDS, status = 'approved'): string {
  const dir = tempDir('collect-leftovers-');
  writeFileSync(
    join(dir, 'status.ndjson'),
    nd(...Array.from({ length: count }, (_, n) => ({ id: `ORD-${n}`, status }))),
  );
  return join(dir, 'status.ndjson');
}

/** Every file under `dir`, by its path relative to it, with its size. */
function filesUnder(dir: string): Map<string, number> {
  const files = new Map<string, number>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    // A file the running collect removes between the listing and the stat (SQLite's journal) is gone.
    const path = join(entry.parentPath, entry.name);
    const stat = entry.isFile() ? statSync(path, { throwIfNoEntry: false }) : undefined;
    if (stat) files.set(relative(dir, path), stat.size);
  }
  return files;
}

/** What a run left in a temporary folder: Node's compile cache (the bin enables it) is Node's, shared by runs. */
const leftIn = (tmp: string) =>
  readdirSync(tmp, { recursive: true }).filter((name) => !String(name).startsWith('node-compile-cache'));

const filesNamed = (pattern: RegExp) => (dir: string) =>
  [...filesUnder(dir).keys()].filter((file) => pattern.test(basename(file))).map((file) => join(dir, file));
const runIndexFiles = filesNamed(/^run-.*\.jsonl$/);
/** The report's issues past the MEMORY_RECORDS it keeps in memory (issueSpillFile.ts). */
const issueFiles = filesNamed(/^issues-.*\.ndjson$/);

interface Child {
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
}

function collect(args: readonly string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ['dist/cli/main.js', ...args], {
    env: { PATH: process.env.PATH ?? '', COLLECT_MEMORY_RECORDS: String(MEMORY_RECORDS), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  return {
    pid: child.pid!,
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout }))),
  };
}

/**
 * Resolves with the run index files under `dir` once there is one (the run spilled), sending `signal` to the
 * run at that moment.
 */
function whenSpilled(
  run: Child,
  dir: string,
  signal: NodeJS.Signals,
  spilled = runIndexFiles,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const watch = setInterval(() => {
      const files = existsSync(dir) ? spilled(dir) : [];
      if (files.length === 0) return;
      clearInterval(watch);
      process.kill(run.pid, signal);
      resolve(files);
    }, 2);
    void run.exited.then(() => {
      clearInterval(watch);
      reject(new Error('the run ended before its run index was seen on disk'));
    });
  });
}

const summaryOf = (stdout: string) => (JSON.parse(stdout) as { summary: { records: number } }).summary;

describe('a run killed with SIGKILL leaves nothing for good', () => {
  it(
    'in the state folder: a clean re-run removes it, and the folder holds what a clean run leaves',
    SLOW,
    async () => {
      const input = statusFile();
      const state = freshStateDir();
      const killed = collect(['status', input, '--dry-run', '--state', state, '--format', 'json']);
      const [leftover] = await whenSpilled(killed, state, 'SIGKILL');
      expect((await killed.exited).signal).toBe('SIGKILL');
      expect(existsSync(leftover!)).toBe(true);
      const rerun = await collect(['status', input, '--dry-run', '--state', state, '--format', 'json'])
        .exited;
      expect(rerun.code).toBe(0);
      expect(summaryOf(rerun.stdout).records).toBe(RECORDS);
      const clean = freshStateDir();
      expect(
        (await collect(['status', input, '--dry-run', '--state', clean, '--format', 'json']).exited).code,
      ).toBe(0);
      const [after, reference] = [filesUnder(state), filesUnder(clean)];
      expect([...after.keys()].sort()).toEqual([...reference.keys()].sort());
      const total = (files: Map<string, number>) => [...files.values()].reduce((sum, size) => sum + size, 0);
      expect(total(after)).toBeLessThanOrEqual(total(reference) * 1.1);
    },
  );

  it("the report's file of issues too: the next run removes it from the state folder", SLOW, async () => {
    // Invalid records: their issues go to a file past MEMORY_RECORDS.
    const input = statusFile(RECORDS, 'nope');
    const state = freshStateDir();
    const args = ['status', input, '--dry-run', '--state', state, '--format', 'json'];
    const killed = collect(args);
    const [leftover] = await whenSpilled(killed, state, 'SIGKILL', issueFiles);
    expect((await killed.exited).signal).toBe('SIGKILL');
    expect(existsSync(leftover!)).toBe(true);
    const rerun = await collect(args).exited;
    expect(rerun.code).toBe(1);
    expect(summaryOf(rerun.stdout).records).toBe(RECORDS);
    expect(issueFiles(state)).toEqual([]);
    expect(existsSync(join(state, 'tmp'))).toBe(false);
  });

  it('without a state folder: the next run removes it from the temporary directory', SLOW, async () => {
    const input = statusFile();
    const tmp = tempDir('collect-tmpdir-');
    const killed = collect(['status', input, '--dry-run', '--no-state', '--format', 'json'], { TMPDIR: tmp });
    const [leftover] = await whenSpilled(killed, tmp, 'SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    expect(existsSync(leftover!)).toBe(true);
    const next = await collect(['status', statusFile(3), '--dry-run', '--no-state', '--format', 'json'], {
      TMPDIR: tmp,
    }).exited;
    expect(next.code).toBe(0);
    expect(leftIn(tmp)).toEqual([]);
  });
});

describe("a live run's files are never removed", () => {
  for (const where of ['the state folder', 'the temporary directory'] as const) {
    it(`in ${where}: another run beside a stopped one leaves its index, and it finishes`, SLOW, async () => {
      const input = statusFile();
      const tmp = tempDir('collect-tmpdir-');
      const state = freshStateDir();
      // The second run only reads the state (a dry run against a base URL), so it runs beside the first one's lock.
      const [first, second] =
        where === 'the state folder'
          ? [
              ['--state', state],
              ['--state', state, '--base-url', 'http://127.0.0.1:9'],
            ]
          : [['--no-state'], ['--no-state']];
      const live = collect(['status', input, '--dry-run', ...first, '--format', 'json'], { TMPDIR: tmp });
      const [index] = await whenSpilled(live, where === 'the state folder' ? state : tmp, 'SIGSTOP');
      try {
        const beside = await collect(['status', statusFile(3), '--dry-run', ...second, '--format', 'json'], {
          TMPDIR: tmp,
        }).exited;
        expect(beside.code).toBe(0);
        expect(existsSync(index!)).toBe(true);
      } finally {
        process.kill(live.pid, 'SIGCONT');
      }
      const done = await live.exited;
      expect(done.code).toBe(0);
      expect(summaryOf(done.stdout).records).toBe(RECORDS);
      expect(leftIn(tmp)).toEqual([]);
      expect(runIndexFiles(state)).toEqual([]);
    });
  }
});
