import { afterEach, describe, expect, it, vi } from 'vitest';
import { GiveUp, STOP_DEADLINE_MS } from './giveUp.js';

afterEach(() => vi.useRealTimers());

describe('GiveUp', () => {
  it('gives up STOP_DEADLINE_MS after the relay began stopping, not before', async () => {
    vi.useFakeTimers();
    const giveUp = new GiveUp(undefined);
    vi.advanceTimersByTime(10 * STOP_DEADLINE_MS);
    expect(giveUp.given).toBe(false); // not stopping: no deadline
    giveUp.start();
    vi.advanceTimersByTime(STOP_DEADLINE_MS - 1);
    expect(giveUp.given).toBe(false);
    giveUp.start(); // a failure after the stop does not push the deadline back
    vi.advanceTimersByTime(1);
    expect(giveUp.given).toBe(true);
    await giveUp.reached;
  });

  it('gives up at once on abandon (a second signal), also when it came first', async () => {
    const abandon = new AbortController();
    const giveUp = new GiveUp(abandon.signal);
    expect(giveUp.given).toBe(false);
    abandon.abort();
    await giveUp.reached;
    expect(giveUp.signal.aborted).toBe(true);
    expect(new GiveUp(abandon.signal).given).toBe(true);
  });

  it('gives up no more once cleared', () => {
    vi.useFakeTimers();
    const giveUp = new GiveUp(undefined);
    giveUp.start();
    giveUp.clear();
    vi.advanceTimersByTime(2 * STOP_DEADLINE_MS);
    expect(giveUp.given).toBe(false);
  });
});
