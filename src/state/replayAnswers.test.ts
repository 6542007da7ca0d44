import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { StateStore } from './stateStore.js';
import { writeNames } from './stateWriteSql.js';

const folder = () => mkdtempSync(join(tmpdir(), 'collect-answers-'));
const request = { where: 'test', waitMs: 0, command: 'collect status' };
const now = new Date('2025-01-01T00:00:00Z');
const status = (n: number) => ({ resource: resources.status, hash: `${n.toString(16).padStart(40, '0')}`, outcome: 'accepted' as const, facts: { kind: 'status', orderId: `O${n}`, key: `O${n}`, status: 'approved' } as Facts });
const creation = (orderId: string) => ({ resource: resources.order, hash: 'f'.repeat(40), outcome: 'accepted' as const, facts: { kind: 'order', orderId, key: orderId, evaluate: false, status: 'pending', payments: [], claims: [] } as Facts });
const answerFiles = (dir: string) => readdirSync(dir).filter((name) => name.includes('-answers-'));

describe('the answers killed runs left, committed by the next run to take the lock', () => {
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
