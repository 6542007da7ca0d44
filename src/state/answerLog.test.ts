import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnswerLog } from './answerLog.js';

const folder = () => mkdtempSync(join(tmpdir(), 'collect-answers-'));
const header = { collectAnswers: 1 as const, writes: ['a', 'b'] };
const answerFiles = (dir: string) => readdirSync(dir).filter((name) => name.includes('-answers-'));

describe('AnswerLog', () => {
  it('keeps one file per batch until the batch is committed; a run holding no lock has its files claimed, in batch order', () => {
    const dir = folder();
    const state = join(dir, 'state.sqlite');
    const run = randomUUID();
    const log = new AnswerLog(state, run, header);
    log.append([0, 'a']);
    log.append([1, 'b']);
    log.seal(1);
    log.append([0, 'c']);
    log.drop(0);
    expect(answerFiles(dir)).toHaveLength(2);
    const left = AnswerLog.claimLeft(state, randomUUID(), new Set());
    expect(left.groups).toEqual([{ writes: ['a', 'b'], ops: [0, 'a'] }, { writes: ['a', 'b'], ops: [1, 'b'] }, { writes: ['a', 'b'], ops: [0, 'c'] }]);
    // Claimed: renamed for the claimer, so its writer sees it at its next append.
    expect(log.append([1, 'd'])).toBe(false);
  });

  it('leaves the files of runs that hold a lock (shards side by side), and gives a file to one claimer only', () => {
    const dir = folder();
    const state = join(dir, 'state.sqlite');
    const [running, stopped] = [randomUUID(), randomUUID()];
    new AnswerLog(state, running, header).append([0, 'running']);
    new AnswerLog(state, stopped, header).append([0, 'stopped']);
    const [first, second] = [randomUUID(), randomUUID()];
    const live = new Set([running, first, second]);
    expect(AnswerLog.claimLeft(state, first, live).groups.map(({ ops }) => ops[1])).toEqual(['stopped']);
    expect(AnswerLog.claimLeft(state, second, live).groups).toEqual([]);
  });

  it('drops a line cut short by a kill (its answers never counted as kept), and only that line', () => {
    const dir = folder();
    const state = join(dir, 'state.sqlite');
    const run = randomUUID();
    new AnswerLog(state, run, header).append([0, 'a']);
    const file = join(dir, answerFiles(dir)[0]!);
    appendFileSync(file, '[0, "b\n[1, "c"]\n[0, "d');
    expect(AnswerLog.claimLeft(state, randomUUID(), new Set()).groups.map(({ ops }) => ops[1])).toEqual(['a', 'c']);
  });
  it('keeps every group whose append returned, and throws for the one a full disk cut short', () => {
    const dir = folder();
    // The built module in a shell whose files may not grow past 2 KiB (EFBIG stands for ENOSPC: write(2) stops short the same way).
    const script = `
      import { AnswerLog } from '${join(process.cwd(), 'dist/state/answerLog.js')}';
      const log = new AnswerLog(${JSON.stringify(join(dir, 'state.sqlite'))}, '${randomUUID()}', { collectAnswers: 1, writes: ['a'] });
      const kept = [];
      try { for (let n = 0; n < 10; n++) { log.append([0, n, 'x'.repeat(300)]); kept.push(n); } } catch (cause) { console.log(JSON.stringify({ kept, code: cause.code })); }`;
    const run = spawnSync('bash', ['-c', 'ulimit -f 2; exec "$0" --input-type=module -e "$1"', process.execPath, script], { encoding: 'utf8' });
    const { kept, code } = JSON.parse(run.stdout) as { kept: number[]; code: string };
    expect(code).toBe('EFBIG');
    expect(kept.length).toBeGreaterThan(0);
    expect(AnswerLog.claimLeft(join(dir, 'state.sqlite'), randomUUID(), new Set()).groups.map(({ ops }) => ops[1])).toEqual(kept);
  });
});
