import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { AnswerLog } from './answerLog.js';
import { StateStore } from './stateStore.js';
import { writeNames } from './stateWriteSql.js';

const folder = () => mkdtempSync(join(tmpdir(), 'collect-answers-'));
const header = { collectAnswers: 1 as const, writes: ['a', 'b'] };
const request = { where: 'test', waitMs: 0, command: 'collect status' };
const now = new Date('2025-01-01T00:00:00Z');
const status = (n: number) => ({ resource: resources.status, hash: `${n.toString(16).padStart(40, '0')}`, outcome: 'accepted' as const, facts: { kind: 'status', orderId: `O${n}`, key: `O${n}`, status: 'approved' } as Facts });
const creation = (orderId: string) => ({ resource: resources.order, hash: 'f'.repeat(40), outcome: 'accepted' as const, facts: { kind: 'order', orderId, key: orderId, evaluate: false, status: 'pending', payments: [], claims: [] } as Facts });
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

describe('a locked state file keeping its answers in the answer log', () => {
  it('has them committed, and no answer file left, once the lock is released', async () => {
    const dir = folder();
    const store = StateStore.open(dir);
    const lock = await store.lock(request);
    store.remember([status(1), status(2)], now);
    expect(answerFiles(dir)).toHaveLength(1);
    lock.release();
    expect(answerFiles(dir)).toEqual([]);
    store.close();
    const reopened = StateStore.open(dir);
    expect(reopened.journalOutcome(status(2).hash)).toBe('accepted');
    reopened.close();
  });

  it('hands its answers to the writer at least once a second, even a few at a time', async () => {
    const dir = folder();
    const store = StateStore.open(dir);
    const lock = await store.lock(request);
    store.remember([status(1)], now);
    store.remember([status(2)], new Date(now.getTime() + 1500));
    store.remember([status(3)], new Date(now.getTime() + 1600));
    expect(answerFiles(dir).some((name) => name.endsWith('.2'))).toBe(true);
    lock.release();
    store.close();
  });

  it('has the answers of a killed run committed by the next run to take the lock', async () => {
    const dir = folder();
    const first = StateStore.open(dir);
    await first.lock(request);
    first.remember([status(1)], now);
    first.remember([status(2)], now);
    // A creation and its status in one group: one write in the file (addOrderLastStatus).
    first.remember([creation('O9'), { ...status(9), facts: { kind: 'status', orderId: 'O9', key: 'O9', status: 'approved' } as Facts }], now);
    // What a kill -9 leaves: the answer file and no commit of its answers (copied beside a fresh state: the writer may commit meanwhile).
    const killed = folder();
    StateStore.open(killed).close();
    for (const name of answerFiles(dir)) copyFileSync(join(dir, name), join(killed, name));
    first.close();
    const next = StateStore.open(killed);
    expect(next.journalOutcome(status(1).hash)).toBeUndefined();
    const lock = await next.lock(request);
    expect(next.journalOutcome(status(1).hash)).toBe('accepted');
    expect(next.journalOutcome(status(2).hash)).toBe('accepted');
    expect(next.priorOrder('O9')).toMatchObject({ created: true, lastStatus: 'approved' });
    expect(answerFiles(killed)).toEqual([]);
    lock.release();
    next.close();
  });

  it('reads a file by the write names of its header, whatever codes this collect gives them', async () => {
    const dir = folder();
    StateStore.open(dir).close();
    const names = [...writeNames].reverse();
    const run = randomUUID();
    const ops = [names.indexOf('journal'), status(7).hash, 1, 1735689600];
    writeFileSync(join(dir, `dry-run.sqlite-answers-${run}-${run}.1`), `${JSON.stringify({ collectAnswers: 1, writes: names })}\n${JSON.stringify(ops)}\n`);
    const store = StateStore.open(dir);
    const lock = await store.lock(request);
    expect(store.journalOutcome(status(7).hash)).toBe('accepted');
    lock.release();
    store.close();
  });

  it('loses no answer when its lock is taken over while it is stopped: the run that took it commits the file, the stopped run the rest', async () => {
    const dir = folder();
    const stopped = StateStore.open(dir);
    await stopped.lock(request);
    stopped.remember([status(1)], now);
    // Taken over as stale (no heartbeat for a minute): its row goes, and the next run takes the lock.
    const db = new Database(join(dir, 'dry-run.sqlite'));
    db.prepare('DELETE FROM run_locks').run();
    db.close();
    const next = StateStore.open(dir);
    const lock = await next.lock(request);
    expect(next.journalOutcome(status(1).hash)).toBe('accepted');
    stopped.remember([status(2)], now);
    stopped.close();
    expect(next.journalOutcome(status(2).hash)).toBe('accepted');
    lock.release();
    next.close();
  });
});
