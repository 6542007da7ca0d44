import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines.js';

describe('Deadlines: every attempt its deadline, on one timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('expires each deadline at its own time, in order, never early', () => {
    const deadlines = new Deadlines(2000, () => Date.now());
    const expired: string[] = [];
    deadlines.add(() => expired.push('a'));
    vi.advanceTimersByTime(500);
    deadlines.add(() => expired.push('b'));
    vi.advanceTimersByTime(1499);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(499);
    expect(expired).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a', 'b']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never expires a cancelled deadline, and keeps no timer once none is live', () => {
    const deadlines = new Deadlines(2000, () => Date.now());
    const expired: string[] = [];
    const a = deadlines.add(() => expired.push('a'));
    deadlines.add(() => expired.push('b'));
    vi.advanceTimersByTime(1000);
    const c = deadlines.add(() => expired.push('c'));
    a.cancel();
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual(['b']);
    c.cancel();
    c.cancel();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(expired).toEqual(['b']);
    // A new deadline after all settled runs on a fresh timer.
    deadlines.add(() => expired.push('d'));
    vi.advanceTimersByTime(2000);
    expect(expired).toEqual(['b', 'd']);
  });

  it('serves many deadlines in flight, expiring only those left unsettled', () => {
    const deadlines = new Deadlines(100, () => Date.now());
    let expired = 0;
    const settledInTime: { cancel(): void }[] = [];
    for (let i = 0; i < 5000; i++) {
      const deadline = deadlines.add(() => expired++);
      if (i % 10 !== 0) settledInTime.push(deadline);
      vi.advanceTimersByTime(i % 3 === 0 ? 1 : 0);
      settledInTime.splice(0, settledInTime.length).forEach((d) => d.cancel());
    }
    vi.advanceTimersByTime(100);
    expect(expired).toBe(500);
    expect(vi.getTimerCount()).toBe(0);
  });
});
