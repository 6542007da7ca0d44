import { describe, expect, it } from 'vitest';
import { TokenBucket } from './tokenBucket.js';

describe('TokenBucket', () => {
  it('lets a burst through, then one request per 1/rate seconds', () => {
    const bucket = new TokenBucket(2, 0);
    expect([bucket.take(0), bucket.take(0)]).toEqual([0, 0]);
    expect(bucket.take(0)).toBe(500);
    expect(bucket.take(500)).toBe(0);
    expect(bucket.take(600)).toBe(400);
    expect(bucket.take(1000)).toBe(0);
  });
  it('never stores more than the burst', () => {
    const bucket = new TokenBucket(1, 0);
    expect(bucket.take(60_000)).toBe(0);
    expect(bucket.take(60_000)).toBe(1000);
  });
  it('takes a fractional rate: 0.5 per second is one request every 2 s', () => {
    const bucket = new TokenBucket(0.5, 0);
    expect(bucket.take(0)).toBe(0);
    expect(bucket.take(0)).toBe(2000);
    expect(bucket.take(1000)).toBe(1000);
    expect(bucket.take(2000)).toBe(0);
  });
});
