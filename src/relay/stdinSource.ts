import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { OutboxEvent, OutboxSource, SettledEvent } from './outboxSource.js';

/** Lines read ahead of the relay before reading pauses. */
const READ_AHEAD = 1000;

/**
 * NDJSON events on standard input (`{"endpoint": "status", "body": {...}}` per line), for a
 * pipeline: a queue consumer piping into the relay. Line numbers are the outbox order. Dead-lettered
 * and held events are written to `deadLetters` (standard output) as NDJSON with their reason, so
 * nothing read is lost; the source ends with its input.
 */
export class StdinSource implements OutboxSource {
  readonly file = '-';
  private buffer: OutboxEvent[] = [];
  private line = 0;
  private done = false;
  private wake: (() => void) | undefined;
  private readonly lines: ReturnType<typeof createInterface>;

  constructor(
    input: Readable,
    private readonly deadLetters: Writable,
  ) {
    this.lines = createInterface({ input, crlfDelay: Infinity });
    this.lines.on('line', (text) => {
      this.line++;
      if (text.trim() === '') return;
      this.buffer.push(parseLine(this.line, text));
      if (this.buffer.length >= READ_AHEAD) this.lines.pause();
      this.wake?.();
    });
    this.lines.on('close', () => {
      this.done = true;
      this.wake?.();
    });
  }

  /** Every line is read and handed out. */
  get ended(): boolean {
    return this.done && this.buffer.length === 0;
  }

  async pending(limit: number): Promise<OutboxEvent[]> {
    const taken = this.buffer.splice(0, limit);
    // Node 24's readline throws on resume() once the input has ended (ERR_USE_AFTER_CLOSE).
    if (!this.done && this.buffer.length < READ_AHEAD) this.lines.resume();
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
    if (!this.done) this.lines.close();
  }
}

/** One line as an event; a line that is not such an object keeps its text, and is dead-lettered with why. */
function parseLine(line: number, text: string): OutboxEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: line, endpoint: undefined, body: undefined, text, createdAt: null, problem: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      id: line,
      endpoint: undefined,
      body: undefined,
      text,
      createdAt: null,
      problem: 'not an object',
    };
  const { endpoint, body } = value as { endpoint?: unknown; body?: unknown };
  return { id: line, endpoint, body, text: JSON.stringify(body ?? null), createdAt: null };
}
