import type { Resource } from '../resources/resource.js';
import { isRecord } from '../schema/checks.js';
import { shardKey } from '../state/shardKey.js';
import type { Shard } from '../state/runState.js';

/** The shard an order belongs to; every record of an order names it, so an order's records land together. */
export function shardOf(orderId: string, count: number): number {
  return shardKey(orderId) % count;
}

/** Whether a record with this order id is the shard's; one without any id goes to shard 0, so it is reported once. */
export function inShard(shard: Shard, orderId: string | undefined): boolean {
  return (orderId === undefined || orderId === '' ? 0 : shardOf(orderId, shard.count)) === shard.index;
}

/** More shards than any fleet runs: past it a count is a typo (each shard also holds its own lock row). */
export const MAX_SHARDS = 10_000;

/** `I/N` of --shard, 0-based as JOB_COMPLETION_INDEX is; else what is wrong with it. */
export function parseShard(text: string): Shard | string {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index >= count)
    return 'give I/N with 0 <= I < N, e.g. 0/4 (in a Kubernetes Indexed Job: $JOB_COMPLETION_INDEX/N)';
  if (count > MAX_SHARDS)
    return `give at most ${MAX_SHARDS.toLocaleString('en-US')} shards (N); ${match[2]} is more than any fleet runs`;
  return { index, count };
}

/**
 * The filter of a run's records for one shard (every record names its order in its resource's order field),
 * with its counts for the report.
 */
export function shardFilter(shard: Shard) {
  let kept = 0;
  let passed = 0;
  return {
    label: `${shard.index}/${shard.count}`,
    kept: () => kept,
    passed: () => passed,
    keep: (resource: Resource, value: unknown): boolean => {
      const id = isRecord(value) ? value[resource.orderField] : undefined;
      const mine = inShard(shard, typeof id === 'string' ? id : undefined);
      if (mine) kept++;
      else passed++;
      return mine;
    },
  };
}
