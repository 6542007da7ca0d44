/**
 * Whether collect takes its fast paths (compiled validators, hashes and row builders, the plain CSV
 * reader, decoding and checking on worker threads): on unless the edge says otherwise. The command
 * line reads COLLECT_FAST_PATHS=0 once at start-up (cli/main.ts) and turns them off: each one's plain
 * twin instead, the same report, slower; for a differential test, or to rule them out. The workers
 * run only with fast paths on, so their default is right.
 */
export let fastPaths = true;

/** Sets the switch; called by the edge before anything runs. */
export function useFastPaths(on: boolean): void {
  fastPaths = on;
}
