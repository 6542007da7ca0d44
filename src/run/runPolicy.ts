import type { RunRequest } from './runRequest.js';

/** What a run may do with its state, from what it was asked. */
export interface RunPolicy {
  sending: boolean;
  /** A dry run that records the records it found valid (an explicit `--state DIR`). */
  remember: boolean;
  /** A dry run that does not remember only reads: it creates no state and spills nothing into one. */
  readOnly: boolean;
  /** A run that writes the state holds it alone, from before its first read to its last write. */
  locking: boolean;
}

export function runPolicy(request: RunRequest): RunPolicy {
  const sending = request.service !== undefined;
  const remember = !sending && request.remember === true && request.stateDir !== null;
  return {
    sending,
    remember,
    readOnly: !sending && !remember,
    locking: request.stateDir !== null && (sending || remember),
  };
}
