import type { Readable, Writable } from 'node:stream';
import { boundedLines } from '../decode/boundedLines.js';
import { MAX_EVENT_BYTES, MAX_QUEUED_BYTES, parseEvent, tooLarge, unreadable } from './eventLimits.js';
import type { OutboxEvent, OutboxSource, SettledEvent } from './outboxSource.js';

/** Lines read ahead of the relay before reading pauses. */
const READ_AHEAD = 1000;
/** A line holds its body and a few words around it (`{"endpoint": …, "body": …}`). */
const LINE_SLACK = 1024;

/**
 * NDJSON events on standard input (`{"endpoint": "status", "body": {...}}` per line), for a
 * pipeline: a queue consumer piping into the relay. Line numbers are the outbox order. Dead-lettered
 * and held events are written to `deadLetters` (standard output) as NDJSON with their reason, so
 * nothing read is lost; the source ends with its input. A line longer than the body limit is
 * counted, not kept (boundedLines), and dead-lettered.
 */
export class StdinSource implements OutboxSource {
  readonly file = '-';
  private buffer: OutboxEvent[] = [];
  /** Characters of the bodies in `buffer`. */
  private buffered = 0;
  private line = 0;
  private done = false;
  private closed = false;
  private waking = false;
  private wake: (() => void) | undefined;
  private resume: (() => void) | undefined;

  constructor(
    private readonly input: Readable,
    private readonly deadLetters: Writable,
    private readonly maxBytes = MAX_EVENT_BYTES,
  ) {
    void this.read().finally(() => {
      this.done = true;
      this.wake?.();
    });
  }

  private async read(): Promise<void> {
    this.input.setEncoding('utf8');
    try {
      for await (const read of boundedLines(this.input, this.maxBytes + LINE_SLACK)) {
        this.line++;
        if ('tooLong' in read) this.push(this.tooLarge(read.tooLong));
        else if (read.text.trim() !== '') this.push(this.parseLine(read.text));
        // Reading pauses while the relay is behind: the pipe's writer waits.
        while (this.full() && !this.closed) await new Promise<void>((resolve) => (this.resume = resolve));
        if (this.closed) return;
      }
    } catch {
      // A failed read of standard input ends it: what was read is relayed.
    }
  }

  private full(): boolean {
    return this.buffer.length >= READ_AHEAD || this.buffered >= MAX_QUEUED_BYTES;
  }

  private push(event: OutboxEvent): void {
    this.buffer.push(event);
    this.buffered += event.text.length;
    // Woken once the chunk's lines are all in: an order's creation on a later line of it is read with its update.
    if (this.waking) return;
    this.waking = true;
    setImmediate(() => {
      this.waking = false;
      this.wake?.();
    });
  }

  /** A line too long to keep: its size only. */
  private tooLarge(size: number): OutboxEvent {
    const problem = tooLarge(size, this.maxBytes, 'the line', 'characters');
    return { id: this.line, endpoint: undefined, body: undefined, text: '', createdAt: null, problem };
  }

  /** One line as an event; a line that is not such an object (or too deep, or too large) is dead-lettered with why. */
  private parseLine(text: string): OutboxEvent {
    const unread = { id: this.line, endpoint: undefined, body: undefined, text: '', createdAt: null };
    const parsed = parseEvent(text);
    if ('problem' in parsed) return { ...unread, problem: parsed.problem };
    const { value } = parsed;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { ...unread, problem: unreadable('not an object') };
    const { endpoint, body } = value as { endpoint?: unknown; body?: unknown };
    const bodyText = JSON.stringify(body ?? null);
    if (bodyText.length > this.maxBytes) return this.tooLarge(bodyText.length);
    return { id: this.line, endpoint, body, text: bodyText, createdAt: null };
  }

  /** Every line is read and handed out. */
  get ended(): boolean {
    return this.done && this.buffer.length === 0;
  }

  async pending(limit: number, _queued?: ReadonlySet<number>, bytes = Infinity): Promise<OutboxEvent[]> {
    let count = 0;
    for (let size = 0; count < Math.min(limit, this.buffer.length); count++) {
      size += this.buffer[count]!.text.length;
      if (count > 0 && size > bytes) break;
    }
    const taken = this.buffer.splice(0, count);
    for (const event of taken) this.buffered -= event.text.length;
    if (!this.full()) this.resume?.();
    return taken;
  }

  wait(ms: number, signal: AbortSignal): Promise<boolean> {
    if (this.buffer.length > 0 || signal.aborted) return Promise.resolve(this.buffer.length > 0);
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', finish);
        this.wake = undefined;
        resolve(this.buffer.length > 0);
      };
      const timer = setTimeout(finish, ms);
      signal.addEventListener('abort', finish);
      this.wake = finish;
    });
  }

  async settle(events: readonly SettledEvent[]): Promise<void> {
    const lines = events
      .filter(({ settlement }) => settlement.state !== 'sent')
      .map(({ event, settlement }) =>
        JSON.stringify({
          line: event.id,
          endpoint: event.endpoint,
          body: event.body,
          state: settlement.state,
          reason: settlement.state === 'sent' ? undefined : settlement.reason,
        }),
      );
    if (lines.length === 0) return;
    await new Promise<void>((resolve, reject) =>
      this.deadLetters.write(`${lines.join('\n')}\n`, (cause) => (cause ? reject(cause) : resolve())),
    );
  }

  async heldOrders(): Promise<Map<string, number>> {
    return new Map();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.resume?.();
    if (!this.done) this.input.destroy();
  }
}
