/** A token bucket for `--rate N` requests per second; time comes from the caller, so tests need no clock. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    now: number,
    private readonly burst = Math.max(1, perSecond),
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes a token: returns 0 when one was free, else how many ms to wait before asking again. */
  take(now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) / this.perSecond) * 1000);
  }
}
