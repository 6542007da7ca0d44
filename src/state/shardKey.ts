/** FNV-1a of an order id: its shard key, the same on every machine and every run; the shard is the key modulo N. */
export function shardKey(orderId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < orderId.length; i++) {
    hash ^= orderId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
