export interface FaultRates {
  fail: number;
  throttle: number;
  slow: number;
  reset: number;
}

export type Fault = 'fail' | 'throttle' | 'slow' | 'reset' | 'none';

/** mulberry32: a small seeded generator, so a fault sequence can be replayed exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Which fault, if any, the next request gets: one draw against the stacked rates. */
export function nextFault(random: () => number, rates: FaultRates): Fault {
  const draw = random();
  let edge = rates.reset;
  if (draw < edge) return 'reset';
  edge += rates.fail;
  if (draw < edge) return 'fail';
  edge += rates.throttle;
  if (draw < edge) return 'throttle';
  edge += rates.slow;
  if (draw < edge) return 'slow';
  return 'none';
}
