import { describe, expect, it } from 'vitest';
import { judgeStatus, parseRetryAfter, retryDelay } from './retryPolicy.js';

describe('judgeStatus', () => {
  it('accepts 2xx, retries 408/429/5xx, stops on 401/403 and rejects other 4xx', () => {
    expect([200, 201, 204].map(judgeStatus)).toEqual(['accepted', 'accepted', 'accepted']);
    expect([408, 429, 500, 502, 503, 504].map(judgeStatus)).toEqual(Array(6).fill('retry'));
    expect([401, 403].map(judgeStatus)).toEqual(['refused', 'refused']);
    expect([400, 404, 409, 413, 422].map(judgeStatus)).toEqual(Array(5).fill('reject'));
  });
});

describe('retryDelay', () => {
  it('grows exponentially with full jitter up to a ceiling', () => {
    const options = { baseMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, () => 0.999999, undefined, options))).toEqual(
      [99, 199, 399, 799, 999],
    );
    expect(retryDelay(3, () => 0, undefined, options)).toBe(0);
    expect(retryDelay(3, () => 0.5, undefined, options)).toBe(200);
  });
  it('waits at least as long as Retry-After, within the ceiling', () => {
    const options = { baseMs: 100, maxMs: 10_000 };
    expect(retryDelay(1, () => 0.5, 3000, options)).toBe(3000);
    expect(retryDelay(1, () => 0.5, 60_000, options)).toBe(10_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores an absent or unreadable value', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
