// node bench/fingerprints.js [ids=10000000]: the memory and time of the order-id fingerprints
// (dist/flow/fingerprintSet.js) for that many distinct ids, then a lookup of every 7th again.
// Run it with node --expose-gc.
import { FingerprintSet } from '../dist/flow/fingerprintSet.js';

const count = Number(process.argv[2] ?? 10_000_000);
const ids = (i) => `ORD-${i}`;
const set = new FingerprintSet();
let started = performance.now();
let repeats = 0;
for (let i = 0; i < count; i++) if (set.add(ids(i))) repeats++;
const addNs = ((performance.now() - started) / count) * 1e6;
started = performance.now();
let found = 0;
for (let i = 0; i < count; i += 7) if (set.add(ids(i))) found++;
const lookupNs = ((performance.now() - started) / Math.ceil(count / 7)) * 1e6;
// Run with --expose-gc to count only the set's live arrays (the ones grown out of are garbage).
globalThis.gc?.();
const arrayBuffersMiB = Number((process.memoryUsage().arrayBuffers / 1048576).toFixed(1));
console.log(
  JSON.stringify({
    ids: count,
    addNs: Math.round(addNs),
    lookupNs: Math.round(lookupNs),
    arrayBuffersMiB,
    falseRepeats: repeats,
    found,
    allFound: found === Math.ceil(count / 7),
    stillHeld: set.add(ids(0)),
  }),
);
