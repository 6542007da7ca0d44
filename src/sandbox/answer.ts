import type { Fault } from './faults.js';
import type { CheckedBody } from './judge.js';
import type { ReceivedRequest } from './protocolRules.js';

/** An answer to a request, as the service would give it. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The answer's text as received from upstream, passed on verbatim (else `body` is written as JSON). */
  raw?: string;
}

/** What became of a request: an answer (maybe delayed by a fault), or a dropped connection. */
export type Outcome =
  { kind: 'answer'; answer: Answer; fault: Fault; delayMs?: number } | { kind: 'reset'; fault: Fault };

/** Answers requests: the sandbox's own stand-in for the service, or the real one upstream. */
export type Service = (request: ReceivedRequest, checked?: CheckedBody) => Outcome | Promise<Outcome>;

export const answer = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body,
  ...(headers ? { headers } : {}),
});
