import type { Writable } from 'node:stream';
import { terminalText } from '../core/terminalText.js';

export type LogFormat = 'text' | 'json';

/** One change of an event's state, or of the relay's. */
export interface LogEntry {
  /** sent, dead, held, repeat, deferred; or the relay's own: started, buckets, stopping, stopped, halted. */
  state: string;
  id?: number;
  endpoint?: string;
  order?: string;
  status?: number;
  code?: string;
  message?: string;
  [more: string]: unknown;
}

/** Event states a text log leaves out: one line per event sent would drown the rest. */
const QUIET = new Set(['sent', 'repeat']);

/**
 * The relay's log on standard error: with json, one JSON object per line for every state change
 * of every event (for a log pipeline); in text, the relay's own changes and the events that did
 * not go through, escaped (an outbox row's text is hostile).
 */
export class RelayLog {
  constructor(
    private readonly out: Writable,
    private readonly format: LogFormat,
    private readonly now: () => Date,
  ) {}

  write(entry: LogEntry): void {
    if (this.format === 'json') {
      this.out.write(`${JSON.stringify({ at: this.now().toISOString(), ...entry })}\n`);
      return;
    }
    if (QUIET.has(entry.state)) return;
    const { state, id, endpoint, order, status, code, message } = entry;
    const what =
      id === undefined
        ? ''
        : ` #${id}${endpoint === undefined ? '' : ` ${endpoint}`}${order ? ` order ${JSON.stringify(order)}` : ''}`;
    const why = [status === undefined ? '' : `HTTP ${status}`, code ?? '', message ?? '']
      .filter(Boolean)
      .join(': ');
    this.out.write(terminalText(`collect relay:${what} ${state}${why ? ` (${why})` : ''}`) + '\n');
  }
}
