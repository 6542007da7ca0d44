/** Which state a run uses, and whether it may write it. */
export interface StateChoice {
  /** A folder or postgres:// URL; null for none. */
  stateDir: string | null;
  /** A dry run records what it found valid (only with an explicit --state DIR). */
  remember: boolean;
  /** A dry run only reads: a state that does not exist is not created. */
  readOnly: boolean;
}

/**
 * A send uses `--state`, else COLLECT_STATE, else `.collect`. A dry run is a function of its
 * inputs: it reads a state only when pointed at one (`--state`, COLLECT_STATE, or `--base-url`,
 * whose state holds what that service accepted) and writes one only with an explicit `--state`.
 */
export function chooseState(options: {
  state?: string | false;
  envState?: string;
  sending: boolean;
  baseUrl?: string;
}): StateChoice {
  const { state, sending } = options;
  const envState = options.envState || undefined;
  if (state === false) return { stateDir: null, remember: false, readOnly: !sending };
  if (sending) return { stateDir: state ?? envState ?? '.collect', remember: false, readOnly: false };
  if (state !== undefined)
    return {
      stateDir: state,
      remember: options.baseUrl === undefined,
      readOnly: options.baseUrl !== undefined,
    };
  if (envState !== undefined) return { stateDir: envState, remember: false, readOnly: true };
  if (options.baseUrl !== undefined) return { stateDir: '.collect', remember: false, readOnly: true };
  return { stateDir: null, remember: false, readOnly: true };
}
