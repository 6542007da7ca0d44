/** A stopping relay waits this long for what is in flight: a request with its retries takes 30 s at most. */
export const STOP_DEADLINE_MS = 30_000;

/**
 * When a stopping or failed relay stops waiting for what is in flight (which then stays pending, sent
 * again by the next start): `abandon` (a second SIGTERM), or `ms` after `start()` (the first, or a failure).
 */
export class GiveUp {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Resolves once given up. */
  readonly reached: Promise<void>;

  constructor(
    abandon: AbortSignal | undefined,
    private readonly ms = STOP_DEADLINE_MS,
  ) {
    abandon?.addEventListener('abort', () => this.controller.abort(), { once: true });
    if (abandon?.aborted) this.controller.abort();
    this.reached = new Promise((resolve) => {
      if (this.controller.signal.aborted) resolve();
      else this.controller.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get given(): boolean {
    return this.controller.signal.aborted;
  }

  /** The relay began stopping: the deadline runs from now (once; it does not keep the process alive). */
  start(): void {
    if (this.timer !== undefined || this.given) return;
    this.timer = setTimeout(() => this.controller.abort(), this.ms);
    this.timer.unref();
  }

  /** The relay stopped: no deadline any more. */
  clear(): void {
    clearTimeout(this.timer);
  }
}
