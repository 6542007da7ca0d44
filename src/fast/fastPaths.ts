/**
 * Whether collect takes its fast paths (fast/README: compiled validators, hashes and row builders,
 * the plain CSV reader, decoding and checking on worker threads). COLLECT_FAST_PATHS=0 takes each
 * one's plain twin instead: the same report, slower; for a differential test, or to rule them out.
 */
export const fastPaths = process.env.COLLECT_FAST_PATHS !== '0';
