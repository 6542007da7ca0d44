import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resources } from '../resources/registry.js';
import type { Facts } from '../resources/resource.js';
import { StateStore } from './stateStore.js';

const folder = () => mkdtempSync(join(tmpdir(), 'collect-answers-'));
const request = { where: 'test', waitMs: 0, command: 'collect status' };
const now = new Date('2025-01-01T00:00:00Z');
const status = (n: number) => ({ resource: resources.status, hash: `${n.toString(16).padStart(40, '0')}`, outcome: 'accepted' as const, facts: { kind: 'status', orderId: `O${n}`, key: `O${n}`, status: 'approved' } as Facts });
const answerFiles = (dir: string) => readdirSync(dir).filter((name) => name.includes('-answers-'));

describe('a locked run handing its answers over (answer log, then the writer)', () => {
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
});
