import type { Issue } from '../core/issue.js';

/** One event of the outbox: an endpoint and its body, at its place in the outbox. */
export interface OutboxEvent {
  /** The outbox's id (a standard input's line number): outbox order. */
  id: number;
  endpoint: unknown;
  body: unknown;
  /** The body as the source holds it, sent as it is (jsonb's text keeps numbers exact). */
  text: string;
  /** When the application wrote it (null: unknown), for the lag and the latency. */
  createdAt: Date | null;
  /** Why the event could not be read (not a JSON object, too large, too deep): it is dead-lettered with this issue. */
  problem?: Issue;
}

/** What became of an event for good. */
export type Settlement =
  | { state: 'sent'; note?: string }
  | { state: 'dead'; reason: DeadReason }
  /** Waits for its order's dead-lettered creation: re-queued with it by `collect relay retry`. */
  | { state: 'held'; reason: DeadReason };

/** Why an event was dead-lettered or held: the issues (code, path, message, hint) or the service's answer. */
export interface DeadReason {
  code: string;
  message: string;
  issues?: Issue[];
  status?: number;
}

export interface SettledEvent {
  event: OutboxEvent;
  orderId: string;
  settlement: Settlement;
}

/**
 * Where the relay's events come from and where their fate is kept: an outbox table
 * (pgOutbox.ts) or standard input (stdinSource.ts).
 */
export interface OutboxSource {
  /** The file issues name (the table, or - for standard input). */
  readonly file: string;
  /**
   * The oldest pending events not `queued` already (by id), in outbox order, at most `limit` events and
   * about `bytes` of text (at least one event); [] when none.
   */
  pending(limit: number, queued?: ReadonlySet<number>, bytes?: number): Promise<OutboxEvent[]>;
  /** Resolves when new events may be there (true: a NOTIFY, a line read), or after `ms`, or when `signal` aborts. */
  wait(ms: number, signal: AbortSignal): Promise<boolean>;
  /** The source has no more events, ever (the end of standard input). */
  readonly ended: boolean;
  /** The source's connection failed (set as soon as it is known): the relay stops. */
  readonly lost?: Error | undefined;
  /** Keeps what became of the events, in one transaction: kept for good once it resolves. */
  settle(events: readonly SettledEvent[]): Promise<void>;
  /** Orders whose creation is dead-lettered (their later events are held), by order id -> the creation's id. */
  heldOrders(): Promise<Map<string, number>>;
  close(): Promise<void>;
}
