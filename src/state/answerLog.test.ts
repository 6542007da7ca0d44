import { appendFileSync, copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { AnswerLog } from './answerLog.js';
import { StateStore } from './stateStore.js';

const folder = () => mkdtempSync(join(tmpdir(), 'collect-answers-'));
const request = { where: 'test', waitMs: 0, command: 'collect status' };
const now = new Date('2025-01-01T00:00:00Z');
const status = (n: number) => ({ resource: resources.status, hash: `${n.toString(16).padStart(40, '0')}`, outcome: 'accepted' as const, facts: { kind: 'status', orderId: `O${n}`, key: `O${n}`, status: 'approved' } as Facts });

describe('AnswerLog', () => {
  it('keeps one file per batch until the batch is committed, and gives back the groups of the files left', () => {
    const dir = folder();
    const log = new AnswerLog(join(dir, 'state.sqlite'));
    log.append([0, 'a']);
    log.append([1, 'b']);
    log.seal(1);
    log.append([2, 'c']);
    expect(AnswerLog.leftBy(join(dir, 'state.sqlite')).map(({ groups }) => groups)).toEqual([[[0, 'a'], [1, 'b']], [[2, 'c']]]);
    log.drop(1);
    expect(readdirSync(dir)).toEqual(['state.sqlite-answers-all.2']);
  });

  it('leaves to a shard the files of the other shards of its split (they may be running), and gives it the rest', () => {
    const dir = folder();
    const state = join(dir, 'state.sqlite');
    new AnswerLog(state, { index: 0, count: 2 }).append([0, 'mine']);
    new AnswerLog(state, { index: 1, count: 2 }).append([0, 'running beside']);
    new AnswerLog(state, { index: 2, count: 3 }).append([0, 'another split']);
    new AnswerLog(state).append([0, 'a whole run']);
    const groups = (shard?: { index: number; count: number }) => AnswerLog.leftBy(state, shard).flatMap((left) => left.groups).map((ops) => ops[1]).sort();
    expect(groups({ index: 0, count: 2 })).toEqual(['a whole run', 'another split', 'mine']);
    expect(groups()).toEqual(['a whole run', 'another split', 'mine', 'running beside']);
  });

  it('drops a last line cut short by a kill: its answers never counted as kept', () => {
    const dir = folder();
    new AnswerLog(join(dir, 'state.sqlite')).append([0, 'a']);
    appendFileSync(join(dir, 'state.sqlite-answers-all.1'), '[0, "b');
    expect(AnswerLog.leftBy(join(dir, 'state.sqlite'))[0]!.groups).toEqual([[0, 'a']]);
  });
});

describe('a locked state file keeping its answers in the answer log', () => {
  it('has them committed, and no answer file left, once the lock is released', async () => {
    const dir = folder();
    const store = StateStore.open(dir);
    const lock = await store.lock(request);
    store.remember([status(1), status(2)], now);
    expect(readdirSync(dir).some((name) => name.includes('-answers-'))).toBe(true);
    expect(store.journalOutcome(status(1).hash)).toBeUndefined(); // the journal was empty before the run: not looked up
    lock.release();
    expect(readdirSync(dir).some((name) => name.includes('-answers-'))).toBe(false);
    store.close();
    const reopened = StateStore.open(dir);
    expect(reopened.journalOutcome(status(2).hash)).toBe('accepted');
    reopened.close();
  });

  it('has the answers of a run killed before its writer committed them replayed by the next run to take the lock', async () => {
    const dir = folder();
    const first = StateStore.open(dir);
    await first.lock(request);
    first.remember([status(1)], now);
    first.remember([status(2)], now);
    const left = readdirSync(dir).filter((name) => name.includes('-answers-'));
    expect(left).toEqual(['dry-run.sqlite-answers-all.1']);
    // What a kill -9 leaves: the answer file and no commit of its answers (a copy beside a fresh state: the writer may commit meanwhile).
    const killed = folder();
    StateStore.open(killed).close();
    for (const name of left) copyFileSync(join(dir, name), join(killed, name));
    first.close();
    const next = StateStore.open(killed);
    expect(next.journalOutcome(status(1).hash)).toBeUndefined();
    const lock = await next.lock(request);
    expect(next.journalOutcome(status(1).hash)).toBe('accepted');
    expect(next.journalOutcome(status(2).hash)).toBe('accepted');
    expect(readdirSync(killed).some((name) => name.includes('-answers-'))).toBe(false);
    lock.release();
    next.close();
  });
});
