import { fastPaths } from './fastPaths.js';

/**
 * A function that answers with `plain` for its first n - 1 calls and, from the n-th on, with what
 * `compile` made then (`plain` still when it made nothing): a compiled fast path costs its compile
 * and V8's warm-up of the generated code, which a short input never pays back.
 */
export function compiledFrom<A, R>(
  n: number,
  plain: (value: A) => R,
  compile: () => ((value: A) => R) | undefined,
): (value: A) => R {
  if (!fastPaths) return plain;
  let calls = 0;
  let current = plain;
  return (value) => {
    if (calls < n && ++calls === n) current = compile() ?? plain;
    return current(value);
  };
}
