/** What became of a record: validated (a dry run's own namespace), or what the service answered. */
export type Outcome = 'validated' | 'accepted' | 'rejected' | 'failed';

/** Journal outcomes as the SQLite state stores them: their position here (schema 4). */
const OUTCOMES: readonly Outcome[] = ['validated', 'accepted', 'rejected', 'failed'];

const HEX_HASH = /^(?:[0-9a-f]{2})+$/;

/** A content hash as stored: the bytes of a lowercase hex hash (half its size), any other text as it is. */
export const hashBlob = (hash: string): Buffer | string =>
  HEX_HASH.test(hash) ? Buffer.from(hash, 'hex') : hash;

/** A stored content hash read back as the hex text the run compares (node:sqlite reads a BLOB as a Uint8Array). */
export const hashText = (stored: Uint8Array | string): string =>
  typeof stored === 'string'
    ? stored
    : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).toString('hex');

/** An outcome as stored: a small integer. */
export const outcomeCode = (outcome: Outcome): number => OUTCOMES.indexOf(outcome);

/** A stored outcome read back (an unknown code reads as failed: it is sent again). */
export const outcomeOf = (code: number): Outcome => OUTCOMES[code] ?? 'failed';

/** A time as stored: whole Unix seconds. */
export const unixSeconds = (at: Date): number => Math.floor(at.getTime() / 1000);
