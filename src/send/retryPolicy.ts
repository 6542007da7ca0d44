/** What to do with the service's answer to one request (docs/payloads.md, "Responses the service gives"). */
export type Verdict = 'accepted' | 'retry' | 'reject' | 'refused';

/**
 * 2xx accepted; 401/403 the key was refused; 408, 429 and 5xx are worth another try; any other 4xx rejects
 * the record.
 */
export function judgeStatus(status: number): Verdict {
  if (status >= 200 && status < 300) return 'accepted';
  if (status === 401 || status === 403) return 'refused';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'reject';
}

export interface BackoffOptions {
  /** The first retry waits up to this long. */
  baseMs: number;
  /** No wait is longer than this, Retry-After included. */
  maxMs: number;
}

export const defaultBackoff: BackoffOptions = { baseMs: 200, maxMs: 30_000 };

/**
 * The wait before retry number `attempt` (1 for the first retry): exponential backoff with
 * full jitter, but never shorter than the service's Retry-After.
 */
export function retryDelay(
  attempt: number,
  random: () => number,
  retryAfterMs?: number,
  options: BackoffOptions = defaultBackoff,
): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** (attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  return retryAfterMs === undefined ? jittered : Math.min(options.maxMs, Math.max(retryAfterMs, jittered));
}

/** Retry-After as milliseconds from now: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
