import type { ReadCheck, ReadLimits } from './sourceRecord.js';

/** Inputs up to this many bytes are read on the reading thread alone: a worker costs more to start than they take. */
export const INLINE_PARSE_BYTES = 128 * 1024;

/**
 * The first bytes of an input, read until they pass INLINE_PARSE_BYTES: `whole` when the input
 * ended before (read it on this thread), `failed` when a read failed first (its bytes before the
 * failure, and the cause), else `large` (cut the rest into pieces for the workers).
 */
export type InputHead =
  { kind: 'whole' | 'large'; bytes: Buffer } | { kind: 'failed'; bytes: Buffer; cause: unknown };

export async function readHead(input: AsyncIterator<Buffer>): Promise<InputHead> {
  const head: Buffer[] = [];
  let size = 0;
  while (size <= INLINE_PARSE_BYTES) {
    let step: IteratorResult<Buffer>;
    try {
      step = await input.next();
    } catch (cause) {
      return { kind: 'failed', bytes: Buffer.concat(head, size), cause };
    }
    if (step.done) return { kind: 'whole', bytes: Buffer.concat(head, size) };
    head.push(step.value);
    size += step.value.length;
  }
  return { kind: 'large', bytes: Buffer.concat(head, size) };
}

/** What a JSON or NDJSON piece task needs to check its records as the run would. */
export interface RecordTaskOptions {
  maxRecordSize: number;
  /** The endpoint whose schema and checks the records are held to, and the run's clock in milliseconds. */
  endpoint: string;
  now: number;
  /** False: values and texts are not sent back (the reader needs only lines, issues, order ids and digests). */
  values: boolean;
  /** False: the run needs only order ids and issues (no flow facts, no hash). */
  digest: boolean;
}

export function recordTaskOptions(limits: ReadLimits, check: ReadCheck): RecordTaskOptions {
  return {
    maxRecordSize: limits.maxRecordBytes,
    endpoint: check.endpoint,
    now: check.now.getTime(),
    values: check.needs === 'values',
    digest: check.needs !== 'ids',
  };
}
