/** Orders are spread over this many buckets (their id's hash); replicas share the buckets. */
export const BUCKETS = 32;

/** The buckets a replica should hold when `replicas` are alive: an even share, rounded up so none is left over. */
export const shareOf = (replicas: number, buckets = BUCKETS): number =>
  Math.ceil(buckets / Math.max(1, replicas));

/**
 * What a replica does at its heartbeat, pure: above its share it releases its highest buckets
 * (another replica takes them), below it tries the free ones, lowest first.
 */
export function planBuckets(
  owned: ReadonlySet<number>,
  replicas: number,
  buckets = BUCKETS,
): { release: number[]; tryTake: number[] } {
  const share = shareOf(replicas, buckets);
  const mine = [...owned].sort((a, b) => a - b);
  if (mine.length > share) return { release: mine.slice(share), tryTake: [] };
  const others: number[] = [];
  for (let bucket = 0; bucket < buckets; bucket++) if (!owned.has(bucket)) others.push(bucket);
  return { release: [], tryTake: mine.length < share ? others : [] };
}
