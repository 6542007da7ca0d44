/** Whether a parsed JSON value nests deeper than `limit` (checked without recursion, so any depth is safe). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= limit) return true;
    for (const inner of Object.values(current))
      if (typeof inner === 'object' && inner !== null) stack.push([inner, depth + 1]);
  }
  return false;
}

/** Records nest a few levels (order > items > product > seller > address); anything far deeper is hostile. */
export const MAX_DEPTH = 32;
