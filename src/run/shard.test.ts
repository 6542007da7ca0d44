import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardOf } from './shard.js';

describe('shards', () => {
  it('puts every order id in exactly one shard, the same on every call, spread over all of them', () => {
    const ids = Array.from({ length: 4000 }, (_, i) => `ORD-${i}`);
    const sizes = [0, 0, 0, 0];
    for (const id of ids) {
      const owners = [0, 1, 2, 3].filter((index) => inShard({ index, count: 4 }, id));
      expect(owners).toEqual([shardOf(id, 4)]);
      sizes[owners[0]!]! += 1;
    }
    for (const size of sizes) expect(size).toBeGreaterThan(800);
  });
  it('gives a record without an order id to shard 0, so it is reported once', () => {
    expect(inShard({ index: 0, count: 3 }, undefined)).toBe(true);
    expect(inShard({ index: 1, count: 3 }, '')).toBe(false);
  });
  it('reads I/N, 0-based, and nothing else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 0 / 1 ')).toEqual({ index: 0, count: 1 });
    for (const bad of ['4/4', '1/0', '-1/4', 'a/4', '1', '1/2/3'])
      expect(parseShard(bad)).toMatch(/0 <= I < N/);
  });
  it('refuses more than 10,000 shards, saying so: 0/99999999999999999999 would select nothing', () => {
    expect(parseShard('9999/10000')).toEqual({ index: 9999, count: 10_000 });
    for (const huge of ['0/10001', '0/99999999999999999999', '3/1e9'])
      expect(parseShard(huge)).toMatch(huge === '3/1e9' ? /I\/N/ : /at most 10,000 shards/);
  });
});
