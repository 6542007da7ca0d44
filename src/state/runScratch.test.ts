import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunScratch, sweepDeadRuns } from './runScratch.js';
import { tempDir } from '../../test/helpers/tempDir.js';

const base = () => tempDir('collect-scratch-test-');
const world = (alive: number[]) => ({ host: 'box', pid: 100, isAlive: (pid: number) => alive.includes(pid) });

describe('sweepDeadRuns', () => {
  it(
    'removes the folders of dead runs on this host only: never a live run, another host, or a name ' +
      'it did not make',
    () => {
      const dir = base();
      for (const name of [
        'box-200-abcDEF',
        'box-300-abcDEF',
        'box-100-abcDEF',
        'other-200-abcDEF',
        'box-200',
        'notes.txt',
        'my-box-200-abcDEF',
      ]) {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, 'run-1.jsonl'), 'x');
      }
      expect(sweepDeadRuns(dir, world([300]))).toEqual(['box-200-abcDEF']);
      expect(readdirSync(dir).sort()).toEqual([
        'box-100-abcDEF',
        'box-200',
        'box-300-abcDEF',
        'my-box-200-abcDEF',
        'notes.txt',
        'other-200-abcDEF',
      ]);
    },
  );
  it('a hyphen in the host name is part of the host', () => {
    const dir = base();
    mkdirSync(join(dir, 'my-box-200-abcDEF'));
    expect(sweepDeadRuns(dir, { ...world([]), host: 'my-box' })).toEqual(['my-box-200-abcDEF']);
  });
  it('a folder that does not exist yet has nothing to sweep', () => {
    expect(sweepDeadRuns(join(base(), 'missing'), world([]))).toEqual([]);
  });
});

describe('RunScratch', () => {
  it('makes its folder only when asked, named for host and pid, and removes it and the empty base on close', () => {
    const dir = join(base(), 'tmp');
    const scratch = RunScratch.in(dir, world([]));
    expect(existsSync(dir)).toBe(false);
    const made = scratch.dir();
    expect(made).toMatch(/box-100-[A-Za-z0-9]{6}$/);
    expect(scratch.dir()).toBe(made);
    writeFileSync(join(made, 'run.jsonl'), 'x');
    scratch.close();
    expect(existsSync(dir)).toBe(false);
  });
  it("keeps the base while another run's folder is in it", () => {
    const dir = join(base(), 'tmp');
    const other = RunScratch.in(dir, { ...world([]), pid: 101 });
    const mine = RunScratch.in(dir, world([101]));
    const kept = other.dir();
    mine.dir();
    mine.close();
    expect(readdirSync(dir)).toEqual([kept.split('/').at(-1)]);
  });
  it("in the temporary directory: a private folder of the user's", () => {
    const tmp = base();
    const scratch = RunScratch.inTemp(tmp, world([]));
    const made = scratch.dir();
    const folder = join(tmp, `collect-${process.getuid?.()}`);
    expect(made.startsWith(folder)).toBe(true);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    scratch.close();
    expect(readdirSync(tmp)).toEqual([]);
  });
});
