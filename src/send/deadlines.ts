/** One deadline: `cancel` once the attempt settled, so that it never expires. */
export interface Deadline {
  cancel(): void;
}

interface Entry extends Deadline {
  at: number;
  expire: () => void;
  live: boolean;
}

const settled = () => {};

/**
 * Deadlines of one length on one timer, armed for the earliest live one: they fall due in the
 * order they were set. None expires early; the timer runs only while a deadline is live. A
 * cancelled deadline lets go of its attempt at once and leaves the queue once those before it did.
 */
export class Deadlines {
  private queue: (Entry | undefined)[] = [];
  private head = 0;
  private live = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls `expire` once `ms` have passed, unless the deadline is cancelled first. */
  add(expire: () => void): Deadline {
    const entry: Entry = {
      at: this.now() + this.ms,
      expire,
      live: true,
      cancel: () => {
        if (!entry.live) return;
        entry.live = false;
        entry.expire = settled;
        if (--this.live === 0) this.reset();
        else if (this.queue[this.head] === entry) this.dropSettled();
      },
    };
    this.queue.push(entry);
    this.live++;
    if (!this.timer) this.arm();
    return entry;
  }

  /** Nothing live: no timer, and the queue starts afresh. */
  private reset(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    this.head = 0;
  }

  /** Lets go of the settled deadlines at the head of the queue. */
  private dropSettled(): void {
    while (this.head < this.queue.length && !this.queue[this.head]!.live) this.queue[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  private arm(): void {
    this.dropSettled();
    const first = this.queue[this.head];
    if (!first) return this.reset();
    this.timer = setTimeout(this.fire, Math.max(0, first.at - this.now()));
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = this.now();
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head]!;
      if (entry.live && entry.at > now) break;
      this.queue[this.head++] = undefined;
      if (!entry.live) continue;
      entry.live = false;
      this.live--;
      entry.expire();
    }
    if (this.live === 0) this.reset();
    else if (!this.timer) this.arm();
  };
}
